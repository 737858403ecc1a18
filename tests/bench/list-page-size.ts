import { gzipSync } from "node:zlib";

/** How big one list page is as a browser gets it: HTML bytes and the elements it parses into. */
export interface ListPageSize {
  path: string;
  htmlBytes: number;
  htmlGzipped: number;
  /** Start tags in the HTML: each is one element in the document (a DOM count without a browser). */
  elements: number;
}

export async function measureListPage(fetchText: (path: string) => Promise<string>, path: string): Promise<ListPageSize> {
  const html = await fetchText(path);
  return {
    path,
    htmlBytes: Buffer.byteLength(html),
    htmlGzipped: gzipSync(html).byteLength,
    elements: html.match(/<[a-zA-Z][\w-]*[\s/>]/g)?.length ?? 0,
  };
}
