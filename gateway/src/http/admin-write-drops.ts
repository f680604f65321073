import type { NextFunction, Request, RequestHandler, Response } from "express";

const REALM_PATH = /^\/admin\/realms\/([^/]+)/;
/** A realm created or imported whole: any realm's name may have been cached before it existed. */
const REALMS_PATH = "/admin/realms";
const READS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Calls `drop(realm)` once an Admin API write to a realm has answered with success (`drop()`
 * for a realm created or imported at `/admin/realms`): every route
 * under `/admin/realms/<realm>` that changes something (identity providers, organizations, an
 * import, the realm itself). Caches keyed by realm use it where their data has no event of its
 * own; dropping after a write that changed nothing they hold only costs a read. A path the
 * routes would refuse drops nothing that matters either: this decides nothing about access.
 */
export function dropOnAdminWrite(drop: (realm?: string) => void): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    if (!READS.has(req.method)) {
      const segment = req.path === REALMS_PATH ? "" : REALM_PATH.exec(req.path)?.[1];
      if (segment !== undefined) {
        res.once("finish", () => {
          if (res.statusCode >= 400) return;
          try {
            drop(segment === "" ? undefined : decodeURIComponent(segment));
          } catch { /* a malformed name: no realm has it, nothing is cached under it */ }
        });
      }
    }
    next();
  };
}
