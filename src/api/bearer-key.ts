import { UnauthorizedError } from "../core/errors.ts";

/**
 * `Authorization: Bearer <key>`: the key; undefined without the header or with another scheme (a
 * mail provider's webhook authenticates with Basic credentials of its own, which its route checks);
 * 401 for a Bearer header without a key.
 */
export function readBearerKey(request: Request): string | undefined {
  const authorization = request.headers.get("authorization");
  if (authorization === null || !/^Bearer\b/i.test(authorization)) return undefined;
  const match = /^Bearer +(\S+) *$/i.exec(authorization);
  if (!match?.[1]) throw new UnauthorizedError("Send the API key as `Authorization: Bearer <key>`");
  return match[1];
}
