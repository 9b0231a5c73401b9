# Bosun's controllers as a container image: `docker build -t bosun .`, then `bosun manifests --image bosun`.
# Stage 1 compiles the CLI (esbuild is a dev dependency); stage 2 installs the runtime dependencies only and
# takes the compiled CLI, so the image carries no compiler, linter or test tooling.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts
COPY . .
RUN node scripts/build-cli.mjs

FROM node:20-bookworm-slim AS runtime-deps
WORKDIR /app
COPY package.json package-lock.json ./
# No lifecycle scripts (prepare would compile); better-sqlite3 then fetches or builds its native addon.
RUN npm ci --omit=dev --ignore-scripts && npm rebuild better-sqlite3

FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production
COPY --from=runtime-deps /app/node_modules ./node_modules
COPY package.json ./
COPY bin ./bin
COPY src ./src
COPY crds ./crds
# Last, so the build is newer than every source it records and bin/bosun.js runs it rather than the sources.
COPY --from=build /app/dist ./dist
# The uid the Deployment's securityContext names (runAsNonRoot needs a numeric user).
USER 65532:65532
ENTRYPOINT ["node", "/app/bin/bosun.js"]
CMD ["controllers"]
