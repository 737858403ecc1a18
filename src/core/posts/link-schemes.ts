/**
 * SPEC §5's link schemes, for the editor's link form and the server's sanitizer alike;
 * javascript:, data: and vbscript: are never among them.
 */
export const linkSchemes = ["http", "https", "ftp", "ftps", "mailto", "tel", "callto", "sms", "cid", "xmpp"] as const;

/** Whether `url` may be a link: a relative address or one of the schemes above. */
export function isAllowedLink(url: string): boolean {
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(url.trim())?.[1]?.toLowerCase();
  return scheme === undefined ? !/^\s*\/\//.test(url) : (linkSchemes as readonly string[]).includes(scheme);
}
