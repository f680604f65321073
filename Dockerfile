# syntax=docker/dockerfile:1
# Tessera: one image for every process. The first argument picks it (deploy/docker/entrypoint.sh):
#   docker run ... tessera gateway | directory | token | saml | broker | federation | audit | embedded
# Build:  docker build -t tessera:dev .      (or: skaffold build; podman/buildah build work alike)

ARG NODE_IMAGE=node:20-bookworm-slim
ARG NODE_BUILD_IMAGE=node:20-bookworm

# ---- build: full toolchain, every dependency, native modules compiled ------------------------
FROM ${NODE_BUILD_IMAGE} AS build
WORKDIR /src
# The official image carries Node's headers under /usr/local/include/node: node-gyp builds
# better-sqlite3 and argon2 against them instead of downloading them.
ENV npm_config_nodedir=/usr/local \
    npm_config_audit=false \
    npm_config_fund=false \
    npm_config_update_notifier=false
COPY package.json package-lock.json .npmrc ./
# The TypeScript Admin REST client is a workspace package: `npm ci` links it by its manifest.
COPY sdk/typescript/package.json ./sdk/typescript/
# `npm ci`: exactly the lock, which lists every platform's optional binaries. Install scripts
# must run: better-sqlite3 compiles from source, and argon2's shipped prebuilt binary is not
# trusted (ci-recipes.md).
RUN --mount=type=cache,target=/root/.npm npm ci --no-audit --no-fund
COPY buf.yaml buf.gen.yaml tsconfig.json ./
COPY proto ./proto
COPY services ./services
COPY gateway ./gateway
COPY console ./console
# The admin console's API client is the TypeScript SDK's source (generated from the OpenAPI document).
COPY sdk/typescript/src ./sdk/typescript/src
COPY deploy/docker ./deploy/docker
RUN npx buf generate \
 && deploy/docker/assemble-app.sh /out \
 && mkdir -p /out-data /out-tmp

# ---- runtime: Node and production dependencies only, non-root, read-only root file system ----
FROM ${NODE_IMAGE} AS runtime
ARG VERSION=0.1.0
ARG REVISION=unknown
ARG CREATED=unknown
ARG SOURCE=https://github.com/tessera-iam/tessera
LABEL org.opencontainers.image.title="Tessera" \
      org.opencontainers.image.description="Multi-realm identity and access management server: Admin API, OAuth 2.0 / OpenID Connect, SAML 2.0 IdP" \
      org.opencontainers.image.licenses="Apache-2.0" \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.revision="${REVISION}" \
      org.opencontainers.image.created="${CREATED}" \
      org.opencontainers.image.source="${SOURCE}" \
      org.opencontainers.image.documentation="${SOURCE}/blob/main/docs/deployment.md" \
      org.opencontainers.image.base.name="docker.io/library/${NODE_IMAGE}"
ENV NODE_ENV=production \
    TESSERA_HOST=0.0.0.0 \
    TESSERA_PORT=8080 \
    TESSERA_DATA_DIR=/data
WORKDIR /app
# Owned by root and not writable by the process: with a read-only root file system the only
# writable places are the two volumes (embedded mode's SQLite files and secrets, and /tmp).
COPY --from=build --chown=0:0 /out /app
COPY --from=build --chown=1000:1000 /out-data /data
COPY --from=build --chown=1000:1000 /out-tmp /tmp
# uid 1000 is the image's `node` user; numeric, so Kubernetes can check runAsNonRoot.
USER 1000:1000
VOLUME ["/data", "/tmp"]
EXPOSE 8080
STOPSIGNAL SIGTERM
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "/app/healthcheck.mjs"]
ENTRYPOINT ["/app/entrypoint.sh"]
CMD ["embedded"]
