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
  /** Why, for the operator's log: the storage away, or only busy (ServerBusyError). */
  readonly busy: boolean = false;
  constructor(
    readonly cause?: unknown,
    message = 'storage unavailable: try again in a moment',
  ) {
    super(message);
  }
}

/**
 * Up, but too busy to answer now: a pool with no free connection in time, a lock or statement timeout,
 * SQLite's file locked, too many passwords being checked. Answered like StorageUnavailableError (503,
 * Retry-After; `unavailable` on sockets) but logged as what it is: load, not an outage.
 */
export class ServerBusyError extends StorageUnavailableError {
  override readonly busy = true;
  constructor(message = 'the server is busy: try again in a moment', cause?: unknown) {
    super(cause, message);
  }
}
