import { ValidationError } from "../errors.ts";
import { segmentMaxLength } from "./segment.schema.ts";

/**
 * The segment grammar (docs/segments.md), parsed into a tree. Pure: no database, no SQL. Loosest
 * to tightest: `,` (an AND read last, so "a OR b, NOT c" is "(a OR b) AND NOT c"), OR, AND, NOT;
 * parentheses group. Keywords are case-insensitive; slugs are lower-cased.
 *
 *   list    := or ("," or)*
 *   or      := and ("OR" and)*
 *   and     := unary ("AND" unary)*
 *   unary   := "NOT" unary | primary
 *   primary := "(" list ")" | "everything" | "supporters" | "follows" topic-slug | "tag" tag-slug
 */
export type SegmentNode =
  | { kind: "everything" }
  | { kind: "supporters" }
  | { kind: "follows"; slug: string; position: number }
  | { kind: "tag"; slug: string; position: number }
  | { kind: "not"; operand: SegmentNode }
  | { kind: "and" | "or"; operands: SegmentNode[] };

/** How deep parentheses and NOTs may nest: far beyond any real audience, short of a stack overflow. */
const maxDepth = 50;

const topicSlugPattern = /^[a-z0-9]+(-[a-z0-9]+)*$/;
const tagSlugPattern = /^[a-z0-9]+([:._-][a-z0-9]+)*$/;

/** A mistake in an expression, naming where (1-based, the first character is 1). Answered as 400. */
export class SegmentSyntaxError extends ValidationError {
  readonly position: number;
  constructor(message: string, position: number) {
    super(`${message} at position ${String(position)}`);
    this.position = position;
  }
}

interface Token {
  kind: "word" | "(" | ")" | "," | "end";
  text: string;
  /** 1-based position of its first character. */
  position: number;
}

function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let index = 0;
  while (index < source.length) {
    const char = source.charAt(index);
    if (/\s/.test(char)) {
      index += 1;
    } else if (char === "(" || char === ")" || char === ",") {
      tokens.push({ kind: char, text: char, position: index + 1 });
      index += 1;
    } else {
      const start = index;
      while (index < source.length && !/[\s(),]/.test(source.charAt(index))) index += 1;
      tokens.push({ kind: "word", text: source.slice(start, index), position: start + 1 });
    }
  }
  tokens.push({ kind: "end", text: "", position: source.length + 1 });
  return tokens;
}

const describe = (token: Token) => (token.kind === "end" ? "the end" : `'${token.text}'`);
const isKeyword = (token: Token, keyword: string) => token.kind === "word" && token.text.toUpperCase() === keyword;

/** Parses an expression; a mistake throws a SegmentSyntaxError naming its position. */
export function parseSegment(source: string): SegmentNode {
  if (source.length > segmentMaxLength) throw new ValidationError(`A segment is at most ${String(segmentMaxLength)} characters`);
  const tokens = tokenize(source);
  if (tokens.length === 1) throw new SegmentSyntaxError("The segment is empty: expected 'everything', 'follows <topic>' or 'tag <tag>'", 1);
  let next = 0;
  const peek = () => tokens[next] as Token;
  const take = () => tokens[next++] as Token;

  const list = (depth: number): SegmentNode =>
    joined(
      "and",
      () => or(depth),
      (token) => token.kind === ",",
    );
  const or = (depth: number): SegmentNode =>
    joined(
      "or",
      () => and(depth),
      (token) => isKeyword(token, "OR"),
    );
  const and = (depth: number): SegmentNode =>
    joined(
      "and",
      () => unary(depth),
      (token) => isKeyword(token, "AND"),
    );

  function joined(kind: "and" | "or", operand: () => SegmentNode, isJoin: (token: Token) => boolean): SegmentNode {
    const operands = [operand()];
    while (isJoin(peek())) {
      take();
      operands.push(operand());
    }
    if (operands.length === 1) return operands[0] as SegmentNode;
    // "a AND (b AND c)" and "(a AND b) AND c" are one AND of three.
    return { kind, operands: operands.flatMap((node) => (node.kind === kind ? node.operands : [node])) };
  }

  function unary(depth: number): SegmentNode {
    if (depth > maxDepth) throw new SegmentSyntaxError(`The segment nests deeper than ${String(maxDepth)} levels`, peek().position);
    if (isKeyword(peek(), "NOT")) {
      take();
      return { kind: "not", operand: unary(depth + 1) };
    }
    return primary(depth);
  }

  function primary(depth: number): SegmentNode {
    const token = take();
    if (token.kind === "(") {
      const inner = list(depth + 1);
      const close = take();
      if (close.kind !== ")")
        throw new SegmentSyntaxError(`Expected ')' to close the '(' at position ${String(token.position)}, found ${describe(close)}`, close.position);
      return inner;
    }
    if (isKeyword(token, "EVERYTHING")) return { kind: "everything" };
    if (isKeyword(token, "SUPPORTERS")) return { kind: "supporters" };
    if (isKeyword(token, "FOLLOWS"))
      return { kind: "follows", slug: slugAfter(token, "a topic slug", topicSlugPattern), position: tokens[next - 1]?.position ?? 0 };
    if (isKeyword(token, "TAG"))
      return { kind: "tag", slug: slugAfter(token, "a tag slug", tagSlugPattern), position: tokens[next - 1]?.position ?? 0 };
    throw new SegmentSyntaxError(
      `Expected 'everything', 'supporters', 'follows <topic>', 'tag <tag>', 'NOT' or '(', found ${describe(token)}`,
      token.position,
    );
  }

  function slugAfter(keyword: Token, what: string, pattern: RegExp): string {
    const token = take();
    const isOperator = ["AND", "OR", "NOT"].some((word) => isKeyword(token, word));
    if (token.kind !== "word" || isOperator) throw new SegmentSyntaxError(`Expected ${what} after '${keyword.text}'`, token.position);
    const slug = token.text.toLowerCase();
    if (!pattern.test(slug)) throw new SegmentSyntaxError(`'${token.text}' is not ${what}`, token.position);
    return slug;
  }

  const tree = list(0);
  const rest = peek();
  if (rest.kind !== "end") {
    const hint = rest.kind === ")" ? "a ')' with no '(' before it" : `${describe(rest)}: join terms with AND, OR or a comma`;
    throw new SegmentSyntaxError(`Unexpected ${hint}`, rest.position);
  }
  return tree;
}

/** The slugs a tree names, to look up at once. */
export function segmentSlugs(tree: SegmentNode): { topics: string[]; tags: string[] } {
  const topics = new Set<string>();
  const tags = new Set<string>();
  const walk = (node: SegmentNode): void => {
    if (node.kind === "follows") topics.add(node.slug);
    else if (node.kind === "tag") tags.add(node.slug);
    else if (node.kind === "not") walk(node.operand);
    else if (node.kind === "and" || node.kind === "or") node.operands.forEach(walk);
  };
  walk(tree);
  return { topics: [...topics], tags: [...tags] };
}

/** The tree written back with every parenthesis it needs and no other (what the dashboard shows). */
export function formatSegment(node: SegmentNode, parent: "or" | "and" | "not" | null = null): string {
  switch (node.kind) {
    case "everything":
      return "everything";
    case "supporters":
      return "supporters";
    case "follows":
      return `follows ${node.slug}`;
    case "tag":
      return `tag ${node.slug}`;
    case "not":
      return `NOT ${formatSegment(node.operand, "not")}`;
    case "and": {
      const text = node.operands.map((operand) => formatSegment(operand, "and")).join(" AND ");
      return parent === "not" ? `(${text})` : text;
    }
    case "or": {
      const text = node.operands.map((operand) => formatSegment(operand, "or")).join(" OR ");
      return parent === "and" || parent === "not" ? `(${text})` : text;
    }
  }
}
