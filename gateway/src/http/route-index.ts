/**
 * Which of the route table's paths a request's pathname reaches, found in one pass over its
 * segments (DESIGN 7: exact routing), where express's router would test each path's regular
 * expression in turn.
 *
 * It answers exactly what express's router (path-to-regexp, with "case sensitive routing" and
 * "strict routing") answers for the paths it accepts: a path whose every segment is literal text
 * or exactly one `:name` parameter. A literal segment matches the same text, case and all; a
 * parameter matches any non-empty segment (never a "/"); the pathname is matched as it arrives,
 * percent-encoding and all (express decodes a parameter only after choosing the route). Where
 * several paths match, the one registered first wins, as express's first match does, so a
 * parameter path registered before a literal one still shadows it. A doubled or trailing slash
 * leaves an empty segment that only an empty literal matches, so `/a/` is not `/a`.
 */
export class RouteIndex {
  private readonly root: Node = newNode();

  /** Throws, naming the path, on a segment of any other shape (`:a-:b`, `*rest`, `{opt}`, `(x)`, `?`). */
  constructor(paths: readonly string[]) {
    paths.forEach((path, index) => this.insert(path, index));
  }

  /** The registration index of the path that `pathname` (the request's raw pathname) reaches, if any. */
  lookup(pathname: string): number | undefined {
    if (pathname.charCodeAt(0) !== SLASH) return undefined;
    const best = search(this.root, pathname.slice(1).split("/"), 0, NONE);
    return best === NONE ? undefined : best;
  }

  private insert(path: string, index: number): void {
    if (!path.startsWith("/")) throw new Error(`route path ${JSON.stringify(path)} does not start with "/"`);
    let node = this.root;
    for (const segment of path.slice(1).split("/")) {
      if (PARAM.test(segment)) {
        node = node.param ??= newNode();
      } else if (LITERAL.test(segment)) {
        let child = node.literals.get(segment);
        if (!child) node.literals.set(segment, (child = newNode()));
        node = child;
      } else {
        throw new Error(`route path ${path} has a segment ${JSON.stringify(segment)} that is neither literal text nor one :parameter; the route table matches only those (DESIGN 7)`);
      }
    }
    // Two spellings of one shape (`/a/:x`, `/a/:y`): the first registered is the one express reaches.
    if (node.entry === NONE) node.entry = index;
  }
}

interface Node {
  literals: Map<string, Node>;
  param: Node | undefined;
  /** The lowest registration index of a path ending here, else NONE. */
  entry: number;
}

const NONE = Number.MAX_SAFE_INTEGER;
const SLASH = 0x2f;
/** path-to-regexp's parameter name, restricted to ASCII: the whole segment is the parameter. */
const PARAM = /^:[A-Za-z_$][A-Za-z0-9_$]*$/;
/** Text path-to-regexp takes as itself: none of its syntax (`:` `*` groups, modifiers, escapes). */
const LITERAL = /^[^:*{}()[\]+?!\\]*$/;

function newNode(): Node {
  return { literals: new Map(), param: undefined, entry: NONE };
}

/**
 * The lowest registration index below `best` of a path matching `segments` from `i` on. Both
 * the literal and the parameter child are explored, since the first registered match may lie
 * under either.
 */
function search(node: Node, segments: string[], i: number, best: number): number {
  if (i === segments.length) return node.entry < best ? node.entry : best;
  const segment = segments[i]!;
  const literal = node.literals.get(segment);
  if (literal) best = search(literal, segments, i + 1, best);
  if (node.param && segment.length > 0) best = search(node.param, segments, i + 1, best);
  return best;
}
