/**
 * The errors domain services throw. Each carries the HTTP status the shared API handler answers
 * with, so services never import anything HTTP-shaped and handlers never guess.
 */
export class AppError extends Error {
  readonly status: number;
  /** A machine-readable reason beside the message, for clients that act on it (sent as `code`). */
  readonly code: string | undefined;
  constructor(message: string, status: number, options?: { cause?: unknown; code?: string }) {
    super(message, options);
    this.name = new.target.name;
    this.status = status;
    this.code = options?.code;
  }
}

/** Input the user can fix; the message is shown to them as is. */
export class ValidationError extends AppError {
  constructor(message: string) {
    super(message, 400);
  }
}

export class UnauthorizedError extends AppError {
  constructor(message = "Not logged in") {
    super(message, 401);
  }
}

export class ForbiddenError extends AppError {
  constructor(message = "Forbidden") {
    super(message, 403);
  }
}

export class NotFoundError extends AppError {
  constructor(message = "Not found") {
    super(message, 404);
  }
}

/** The request clashes with what is already there (e.g. a post that was sent already). */
export class ConflictError extends AppError {
  constructor(message = "This conflicts with the current state") {
    super(message, 409);
  }
}

export class PayloadTooLargeError extends AppError {
  constructor(message = "The upload is too large") {
    super(message, 413);
  }
}

export class UnsupportedTypeError extends AppError {
  constructor(message = "This file type is not allowed") {
    super(message, 415);
  }
}

export class RateLimitedError extends AppError {
  /** Seconds until the client may try again (sent as `Retry-After`). */
  readonly retryAfterSeconds: number;
  constructor(message: string, retryAfterSeconds: number) {
    super(message, 429);
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/**
 * The database could not be reached; the request may succeed later. The database adapters throw it
 * in place of the driver's error, which stays as `cause` (for the log, never for the client).
 */
export class DatabaseUnavailableError extends AppError {
  /** Seconds after which the client may try again (sent as `Retry-After`). */
  readonly retryAfterSeconds = 5;
  constructor(options?: { cause?: unknown }) {
    super("The database is unavailable. Please try again shortly.", 503, options);
  }
}
