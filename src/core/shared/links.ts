/** What a download link carries: its expiry (unix seconds) and an HMAC-SHA256 of id and expiry (base64url). */
/**
 * What a download link carries: its expiry (unix seconds) and an HMAC-SHA256 of id and expiry
 * (base64url). The link in the download email also names its recipient (`r`, their subscriber id,
 * signed with the rest): opening it shows the person owns the address it was sent to, which the
 * link in the form's answer (no `r`) never does (docs/decisions/0055-who-starts-a-sequence.md).
 */
export interface SignedDownload {
  expires: string;
  signature: string;
  r?: string;
  /** A paid resource's link names its payment (src/core/downloads/download-link.ts). */
  p?: string;
}

/**
 * The URLs services hand out, as paths on the site (they never spell the API's paths: the API
 * makes them, in src/api/api-urls.ts, next to the routes that answer them).
 */
export interface ApiUrls {
  /** Where a stored file (an `images/…` key) is served. */
  file: (key: string) => string;
  /** Whether a URL is one `file` makes: an image stored and served by the site itself. */
  isFile: (url: string) => boolean;
  /** A resource's signed download link. */
  downloadFile: (id: number, signed: SignedDownload) => string;
  /** The page a confirmation link opens (a path: email makes it absolute on the site). */
  confirmSubscription: (token: string) => string;
  /** The unsubscribe page, which is also the RFC 8058 one-click endpoint (a path). */
  unsubscribe: (token: string) => string;
  /**
   * The "Choose what you get" page for a preferences token (a path); `unfollow` (a topic's slug)
   * opens it with that topic's unfollowing ready to save.
   */
  preferences: (token: string, unfollow?: string) => string;
  /** The page a poll answer's link in an email opens, for a poll token (a path; issue 42 point 6). */
  pollAnswer: (pollId: number, token: string) => string;
  /** The newsletter's signed click redirect for a link's and a recipient's token (a path). */
  newsletterClick?: (linkToken: string, recipientToken: string) => string;
}
