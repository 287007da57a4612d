/**
 * The baselines of docs/LOAD.md: a stock boardgame.io 0.50.2 server (its own socket transport, Master and
 * in-memory storage) with the small card game of toy-game.ts — or, with GAME=watergate, with our game as
 * it is, to tell what the game costs from what our server adds — on PORT. `npm run bench:server` starts
 * it and drives it with the same load generator as our server.
 */
process.env.NODE_ENV ??= 'production';
const { Server } = await import('boardgame.io/server');
const { ToyGame } = await import('./toy-game');
const { Watergate } = await import('../../game/index');

const server = Server({ games: [process.env.GAME === 'watergate' ? Watergate : ToyGame] as never[], origins: [/.*/] });
const port = Number(process.env.PORT ?? 8100);
// Loopback only, as our server by default.
const listen = server.app.listen.bind(server.app) as (...a: unknown[]) => unknown;
(server.app as { listen: unknown }).listen = (p: number, cb: () => void) => listen(p, '127.0.0.1', cb);
await server.run({ port }, () => console.log(JSON.stringify({ msg: 'listening', url: `http://127.0.0.1:${port}` })));
process.once('SIGTERM', () => process.exit(0));
export {};
