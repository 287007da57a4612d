/** koa-socket-2 ships no types; this is the part boardgame.io's transport (and ours) uses. */
declare module 'koa-socket-2' {
  export default class IO {
    constructor(opts?: { namespace?: string; hidden?: boolean; ioOptions?: object });
    attach(app: object, https?: boolean, opts?: object): void;
  }
}
