import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";

// The folders of src/core as one graph: every import between two files becomes an edge between
// their folders. The file-level cycle gate (import-boundaries.test.ts) cannot see a knot of folders
// that point at each other through different files (10 of 17 folders were one, issue 38).
const projectRoot = fileURLToPath(new URL("../..", import.meta.url));

/** The floor every feature stands on: anyone may import it, and it imports no feature (the lint rule in .config/eslint.config.js). */
const floor = new Set(["(root)", "shared", "db", "files", "mail", "settings"]);

/**
 * The edges from one feature to another, each a real use case. Any other one fails the test below:
 * name it here with its reason, or move what it needs down to the floor.
 */
const useCaseEdges: Record<string, string> = {
  "backups -> downloads": "a restore checks each resource row with the resource form's schema",
  "backups -> posts": "a restore cleans post rows with the post form's schema and sanitizer",
  "backups -> sequences": "a restore checks each step with the step form's schema",
  "backups -> subscribers": "a restore checks each address with the subscriber schema",
  "backups -> imports": "a restore reads zip entries and records its run as an import does",
  "backups -> newsletter": "a restore recounts each send's counters from its restored recipients",
  "backups -> publishing": "a restore rebuilds the site",
  "downloads -> publishing": "a resource's change rebuilds the site",
  "downloads -> sequences": "a download request may enrol the person in a sequence",
  "downloads -> subscribers": "a download request records who asked as a subscriber",
  "downloads -> webhooks": "a download request is a webhook event (recorded in its transaction)",
  "email-events -> subscribers": "list health reads the subscriber totals",
  "email-events -> webhooks": "a bounce or complaint is a webhook event",
  "fediverse -> publishing": "a post's change goes to the followers once its page shows it, by the WebSub pings' rule (changeIsLive)",
  "feeds -> posts": "a feed carries posts, their HTML through the post sanitizer again",
  "imports -> posts": "an import writes posts",
  "imports -> publishing": "an import rebuilds the site",
  "imports -> subscribers": "a subscriber import runs as an import run",
  "payments -> downloads": "a paid resource is released through the resources' signed download link",
  "payments -> subscribers": "a buyer who ticked the newsletter box is signed up as on the form; a supporter carries the supporter tag",
  "payments -> stats": "a Checkout is attributed to its visit's source as a signup is (revenue per source)",
  "newsletter -> email-events": "a send records SMTP bounces and pauses on its bounce and complaint figures",
  "newsletter -> posts": "a newsletter is a post's email",
  "newsletter -> stats": "a newsletter's links go through the click redirect",
  "newsletter -> segments": "a send goes to an audience: everyone or a segment",
  "newsletter -> polls": "a post's polls become one signed link per answer in its email",
  "polls -> subscribers": "a poll answer may set a subscriber tag",
  "newsletter -> subscribers": "a newsletter goes to subscribers",
  "newsletter -> webhooks": "a finished send is a webhook event",
  "posts -> comments": "a post's answer carries its public comment count (one visibility rule)",
  "stats -> comments": "Stats show each post's public comment count",
  "subscribers -> comments": "a person's export and erase carry their comments (decision 0073)",
  "posts -> publishing": "a post's change rebuilds the site",
  "posts -> webhooks": "publishing, updating or unpublishing a post is a webhook event",
  "sequences -> segments": "a sequence may be limited to a segment",
  "readers -> subscribers": "a reader is a subscriber: a stranger's sign-in is a signup, and delete my account is the person's erase",
  "sequences -> posts": "a step's body is cleaned as a post's is",
  "sequences -> stats": "a step's links go through the click redirect",
  "setup -> downloads": "the checklist counts resources",
  "setup -> posts": "the checklist counts posts",
  "stats -> posts": "a page view counts only for a page that exists: posts, categories and list pages",
  "subscribers -> sequences": "a confirmed subscriber is enrolled in the sequences",
  "subscribers -> webhooks": "a signup, confirmation or unsubscribe is a webhook event",
};

interface MadgeGraph {
  obj(): Record<string, string[]>;
}
type Madge = (paths: string[], config: Record<string, unknown>) => Promise<MadgeGraph>;
const madge = createRequire(import.meta.url)("madge") as Madge;

/** `src/core/<folder>/…` → the folder; a file directly in src/core → "(root)"; anything else → null. */
function coreFolder(file: string): string | null {
  if (!file.startsWith("src/core/")) return null;
  const rest = file.slice("src/core/".length);
  return rest.includes("/") ? (rest.split("/")[0] ?? null) : "(root)";
}

/** The folder graph: `from -> to` for every import between files of two different folders. */
function folderEdges(files: Record<string, string[]>): Set<string> {
  const edges = new Set<string>();
  for (const [from, imports] of Object.entries(files)) {
    const a = coreFolder(from);
    for (const to of imports) {
      const b = coreFolder(to);
      if (a && b && a !== b) edges.add(`${a} -> ${b}`);
    }
  }
  return edges;
}

/** The strongly connected components with more than one node (Tarjan's algorithm), each sorted. */
function knots(edges: Iterable<string>): string[][] {
  const next = new Map<string, string[]>();
  for (const edge of edges) {
    const [from = "", to = ""] = edge.split(" -> ");
    next.set(from, [...(next.get(from) ?? []), to]);
    if (!next.has(to)) next.set(to, []);
  }
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string) => {
    index.set(node, index.size);
    low.set(node, index.get(node) as number);
    stack.push(node);
    onStack.add(node);
    for (const to of next.get(node) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node) as number, low.get(to) as number));
      } else if (onStack.has(to)) {
        low.set(node, Math.min(low.get(node) as number, index.get(to) as number));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string | undefined;
    do {
      member = stack.pop();
      if (member === undefined) break;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1) found.push(component.sort());
  };
  for (const node of next.keys()) if (!index.has(node)) visit(node);
  return found;
}

describe("the folders of src/core", () => {
  // Parses every file of src/core, which takes seconds on a loaded machine.
  test("form no knot, and a feature imports another only for a use case named here", async () => {
    const detective = { skipTypeImports: false, skipAsyncImports: false };
    const graph = await madge([`${projectRoot}src/core`], {
      baseDir: projectRoot,
      fileExtensions: ["ts", "tsx"],
      // A test wires real parts from anywhere; only the code's own imports make the graph.
      excludeRegExp: [/\.test\.tsx?$/],
      detectiveOptions: { ts: detective, tsx: detective },
    });
    const edges = folderEdges(graph.obj());
    expect(knots(edges)).toEqual([]);
    const fromFloor = [...edges].filter((edge) => floor.has(edge.split(" -> ")[0] ?? "") && !floor.has(edge.split(" -> ")[1] ?? ""));
    expect(fromFloor).toEqual([]);
    const unnamed = [...edges].filter((edge) => !floor.has(edge.split(" -> ")[1] ?? "") && !(edge in useCaseEdges));
    expect(unnamed).toEqual([]);
    // A named edge that no longer exists is taken off the list.
    expect(Object.keys(useCaseEdges).filter((edge) => !edges.has(edge))).toEqual([]);
  }, 60_000);

  test("the knot this test was written for is found", () => {
    const before = folderEdges({
      "src/core/mail/outbox-delivery.ts": ["src/core/subscribers/subscription-emails.ts", "src/core/mail/outbox.ts"],
      "src/core/subscribers/subscription-emails.ts": ["src/core/mail/outbox.ts", "src/core/downloads/download-link.ts"],
      "src/core/downloads/downloads.service.ts": ["src/core/subscribers/subscription-emails.ts"],
      "src/core/shared/links.ts": ["src/core/downloads/download-link.ts"],
      "src/core/downloads/download-link.ts": ["src/core/shared/signer.ts"],
      "src/core/posts/posts.service.ts": ["src/core/errors.ts"],
    });
    expect(knots(before)).toEqual([["downloads", "mail", "shared", "subscribers"]]);
  });

  test("a chain without a way back is no knot, and a cycle of three is one", () => {
    expect(knots(["a -> b", "b -> c", "a -> c"])).toEqual([]);
    expect(knots(["a -> b", "b -> c", "c -> a", "c -> d"])).toEqual([["a", "b", "c"]]);
  });
});
