# The savepoint-inspector CLI as a container image, built from the npm package's tarball (docs/cli.md, "Container"):
#   npm pack && docker build -t savepoint-inspector:0.1.0 .
#   docker run --rm -v "$PWD:/work" savepoint-inspector:0.1.0 check /work/savepoint --descriptors /work/new.binpb
# The package has no dependencies (its CLI bundle holds them), so the install is offline. VERSION is the
# package's version (tests/ci/dockerfile.test.ts holds it to package.json's).
FROM node:20.19.4-bookworm-slim
ARG VERSION=0.1.0
COPY savepoint-inspector-${VERSION}.tgz /tmp/
RUN npm install --global --offline --no-audit --no-fund --no-update-notifier /tmp/savepoint-inspector-${VERSION}.tgz \
 && rm /tmp/savepoint-inspector-${VERSION}.tgz \
 && npm cache clean --force
USER node
WORKDIR /work
ENTRYPOINT ["savepoint-inspector"]
CMD ["--help"]
