import { UnauthorizedError } from "../core/errors.ts";

/** `Authorization: Bearer <key>`: the key, undefined without the header, 401 for anything else. */
export function readBearerKey(request: Request): string | undefined {
  const authorization = request.headers.get("authorization");
  if (authorization === null) return undefined;
  const match = /^Bearer +(\S+) *$/i.exec(authorization);
  if (!match?.[1]) throw new UnauthorizedError("Send the API key as `Authorization: Bearer <key>`");
  return match[1];
}
