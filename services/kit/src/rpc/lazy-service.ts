import type { DescService } from "@bufbuild/protobuf";
import { Code, ConnectError, type HandlerContext, type ServiceImpl } from "@connectrpc/connect";
import { lazyImport } from "../runtime/lazy-import.js";

/**
 * An implementation of a unary-only service whose code is imported at its first call: for
 * services few requests use (realm export and import, whose handlers bring zod's schemas), so
 * they do not weigh on a cold start. Each method awaits the implementation `load` builds (once)
 * and calls it; a method it leaves out answers unimplemented, as the router would.
 */
export function lazyService<S extends DescService>(service: S, load: () => Promise<Partial<ServiceImpl<S>>>): Partial<ServiceImpl<S>> {
  const impl = lazyImport(load);
  const methods: Record<string, (req: unknown, ctx: HandlerContext) => Promise<unknown>> = {};
  for (const method of service.methods) {
    if (method.methodKind !== "unary") throw new Error(`lazyService serves unary methods only; ${service.typeName}.${method.name} is ${method.methodKind}`);
    methods[method.localName] = async (req, ctx) => {
      const target = await impl();
      const handler = target[method.localName as keyof ServiceImpl<S>] as ((req: unknown, ctx: HandlerContext) => Promise<unknown>) | undefined;
      if (!handler) throw new ConnectError(`${service.typeName}.${method.name} is not implemented`, Code.Unimplemented);
      return handler.call(target, req, ctx);
    };
  }
  return methods as Partial<ServiceImpl<S>>;
}
