# syntax=docker/dockerfile:1
# Parley's image (docs/deploy.md "The image"): a build stage compiles the server and builds the
# dashboard and the widget; the runtime stage holds production dependencies and those outputs only,
# and runs as the unprivileged `node` user.
ARG NODE_IMAGE=node:24-bookworm-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /app
# Manifests first: the dependency layer is reused until they change.
COPY package.json package-lock.json ./
COPY packages/contract/package.json packages/contract/
COPY apps/server/package.json apps/server/
COPY apps/web/package.json apps/web/
COPY apps/widget/package.json apps/widget/
# No install scripts: the root postinstall builds the dashboard and widget, which `npm run build`
# does below once the sources are here.
RUN npm ci --no-audit --no-fund --ignore-scripts
COPY . .
RUN npm run build

FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/data
WORKDIR /app
COPY package.json package-lock.json ./
COPY packages/contract/package.json packages/contract/
COPY apps/server/package.json apps/server/
COPY apps/web/package.json apps/web/
COPY apps/widget/package.json apps/widget/
RUN npm ci --omit=dev --no-audit --no-fund --ignore-scripts --workspace @parley/server \
 && npm cache clean --force \
 && mkdir -p /data && chown node:node /data
# What `npm run build` produced (packages/contract/build.mjs, apps/server/build.mjs, apps/web/build.mjs,
# apps/widget/build.mjs). The server reads the compiled contract under the `parley-dist` condition.
COPY --from=build /app/packages/contract/dist packages/contract/dist
COPY --from=build /app/apps/server/dist apps/server/dist
COPY --from=build /app/apps/web/dist apps/web/dist
COPY --from=build /app/apps/widget/dist apps/widget/dist
USER node
VOLUME ["/data"]
EXPOSE 3000
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/readyz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# SIGTERM drains: open requests and streams finish within SHUTDOWN_GRACE_MS (docs/deploy.md "Stopping").
STOPSIGNAL SIGTERM
CMD ["node", "--conditions=parley-dist", "--enable-source-maps", "apps/server/dist/main.js"]
