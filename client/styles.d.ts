/** Stylesheets imported for their side effect (Vite adds them to the page): the Chinese face, loaded on demand. */
declare module '@fontsource-variable/noto-serif-sc/wght.css';
