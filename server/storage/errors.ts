/** Errors the store throws on purpose; `status` lets Koa answer the HTTP client with it. */
export class HttpError extends Error {
  readonly expose = true;
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** A state write whose _stateID does not follow the stored one: another write got there first. */
export class StaleStateError extends Error {
  constructor(
    readonly matchID: string,
    readonly stored: number | null,
    readonly attempted: number,
  ) {
    super(
      stored === null
        ? `match ${matchID} no longer exists: state ${attempted} refused`
        : `stale write refused for match ${matchID}: stored state ${stored}, write of state ${attempted}`,
    );
  }
}
