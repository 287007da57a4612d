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

/**
 * The database could not be reached or did not answer in time. Whatever was being done may or may not
 * have happened (a timeout after the statement was sent): the caller reads the truth again later.
 * Answered to HTTP clients as 503 with these words, to sockets as `unavailable`.
 */
export class StorageUnavailableError extends Error {
  readonly status = 503;
  readonly expose = true;
  readonly retryAfterSeconds = 1;
  constructor(readonly cause?: unknown) {
    super('storage unavailable: try again in a moment');
  }
}
