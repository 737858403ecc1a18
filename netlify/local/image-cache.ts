/**
 * The Image CDN keeps each transformed image at its edge, so only a page's first visitor waits for
 * the resize; the local emulation transforms on every request. This cache does for `npm start`
 * what the CDN does: a stored image's URL never changes content, so neither does a variant's.
 */
export interface ImageCache {
  /** The cached answer for `url`, or `transform`'s (kept when it is a 200). */
  answer(url: string, transform: () => Promise<Response | undefined>): Promise<Response | undefined>;
}

interface Kept {
  body: ArrayBuffer;
  headers: [string, string][];
}

export function createImageCache(maxBytes = 64 * 1024 * 1024): ImageCache {
  const kept = new Map<string, Kept>();
  let bytes = 0;
  const replay = (entry: Kept) => new Response(entry.body.slice(0), { status: 200, headers: entry.headers });
  return {
    async answer(url, transform) {
      const hit = kept.get(url);
      if (hit) {
        // Most recently used last: the first entry is the one to drop.
        kept.delete(url);
        kept.set(url, hit);
        return replay(hit);
      }
      const response = await transform();
      if (response?.status !== 200) return response;
      const entry = { body: await response.arrayBuffer(), headers: [...response.headers] };
      kept.set(url, entry);
      bytes += entry.body.byteLength;
      for (const [oldest, old] of kept) {
        if (bytes <= maxBytes) break;
        kept.delete(oldest);
        bytes -= old.body.byteLength;
      }
      return replay(entry);
    },
  };
}
