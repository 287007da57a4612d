/** seedrandom's Alea generator alone (the package's entry brings every other generator along). */
declare module 'seedrandom/lib/alea.js' {
  import type seedrandom from 'seedrandom';
  const alea: seedrandom['alea'];
  export default alea;
}
