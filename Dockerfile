# syntax=docker/dockerfile:1
#
# Kassa, production image:
#   docker build -t kassa .
#   docker run -p 3000:3000 -v kassa-data:/data -e SLACK_SIGNING_SECRET -e SLACK_BOT_TOKEN -e CREDENTIALS_KEY kassa
#
# Base image: Node.js 24 LTS on Debian 12 "bookworm", slim variant, pinned by major version tag: the
# line the tests run on (node:22-bookworm-slim works as well). Not Node 20: it reached end of life on
# 2026-04-30. Both stages use the same image. Nothing is compiled: the SQLite driver (better-sqlite3)
# ships its binaries inside the package, so the image needs no python3, make or g++.
# test/docker.test.ts checks this file and runs its build steps and its final stage.

# ---- Build stage: all dependencies, TypeScript compile, then only production dependencies kept.
FROM node:24-bookworm-slim AS build
WORKDIR /app
# Package files before the source: this layer is reused until package.json or package-lock.json
# change. (npm ci also fetches the `node` package, the Node the npm scripts run on where the
# system's is older; it is a dev dependency, pruned below: the image runs on its own Node.)
COPY package.json package-lock.json ./
RUN --mount=type=cache,target=/root/.npm npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
# Compile, then drop the dev dependencies (TypeScript, Vitest, Biome, tsx, the `node` package, ...)
# from node_modules.
RUN npm run build \
  && npm prune --omit=dev --no-audit --no-fund

# ---- Final stage: the compiled app and its production dependencies, nothing else.
FROM node:24-bookworm-slim
# Heap sizes (override NODE_OPTIONS to change them): the old-space cap keeps V8 from growing the
# heap far past what the app uses (about 40 MiB under load); a young generation of 2 x 32 MiB instead
# of Node's 2 x 16 lets a command's short-lived objects die young, which took about 15% off Kassa's
# CPU per command under load (npm run bench) for about 30 MiB more RSS, still under 200 MB.
ENV NODE_ENV=production \
    NODE_OPTIONS="--max-old-space-size=128 --max-semi-space-size=32" \
    PORT=3000 \
    STORE_URL=sqlite:///data/kassa.sqlite
WORKDIR /app
# Owned by root and read-only for the app's user; the app writes only to /data.
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
# Created and handed to "node" before VOLUME, so a new named volume starts out writable by it.
RUN mkdir -p /data && chown node:node /data
USER node
# The SQLite database (and its key file when CREDENTIALS_KEY is not set).
VOLUME ["/data"]
EXPOSE 3000
# Slim images have no curl: Node's own fetch asks GET /healthz.
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/healthz', { signal: AbortSignal.timeout(4000) }).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# `docker stop` sends SIGTERM to PID 1. Node runs as PID 1 directly (exec form, no shell, no npm):
# the app handles SIGTERM and SIGINT itself (stops taking requests, closes the database, exits 0)
# and starts no child processes, so it needs no init (--init / tini) to forward signals or reap.
STOPSIGNAL SIGTERM
CMD ["node", "dist/index.js"]
