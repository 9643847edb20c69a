/** A refusal from an identity provider or of its answer, with a reason a person can read. */
export class IdentityError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'IdentityError';
  }
}
