# syntax=docker/dockerfile:1.7
# One image for every service; the command picks which (SERVICE=auth|billing|relay|chat|admin|gateway).

FROM node:22-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
COPY apps/gateway/package.json apps/gateway/
COPY apps/auth/package.json apps/auth/
COPY apps/billing/package.json apps/billing/
COPY apps/relay/package.json apps/relay/
COPY apps/chat/package.json apps/chat/
COPY apps/admin/package.json apps/admin/
COPY apps/web/package.json apps/web/
COPY libs/contracts/package.json libs/contracts/
COPY libs/platform/package.json libs/platform/
COPY libs/events/package.json libs/events/
COPY libs/kv/package.json libs/kv/
COPY libs/persistence/package.json libs/persistence/
COPY libs/runtime/package.json libs/runtime/
COPY libs/testing/package.json libs/testing/
COPY tools/launcher/package.json tools/launcher/
RUN npm ci --no-audit --no-fund

FROM deps AS build
COPY . .
RUN node scripts/build.mjs --force && npm prune --omit=dev --no-audit --no-fund

FROM node:22-bookworm-slim AS runtime
ENV NODE_ENV=production HOST=0.0.0.0
WORKDIR /app
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/package.json ./
COPY --from=build /app/libs ./libs
COPY --from=build /app/apps ./apps
COPY --from=build /app/tools ./tools
USER node
ENV SERVICE=gateway
CMD ["sh", "-c", "exec node apps/${SERVICE}/dist/main.js"]
