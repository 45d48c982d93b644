# Stand-in for node:22-bookworm-slim where Docker Hub is out of reach: Debian's minimal base
# with this machine's Node.js and npm copied in, and the `node` user the official image has.
FROM local/debian:bookworm
RUN apt-get update -q && apt-get install -y -q --no-install-recommends ca-certificates libstdc++6 && rm -rf /var/lib/apt/lists/* \
 && groupadd --gid 1000 node && useradd --uid 1000 --gid node --shell /bin/bash --create-home node
# The machine's CA bundle: where egress goes through a TLS proxy, npm in the build must trust it.
COPY ca-certificates.crt /etc/ssl/certs/machine-ca-bundle.crt
ENV NODE_EXTRA_CA_CERTS=/etc/ssl/certs/machine-ca-bundle.crt npm_config_cafile=/etc/ssl/certs/machine-ca-bundle.crt
COPY node /usr/local/bin/node
COPY npm /usr/local/lib/node_modules/npm
RUN ln -s ../lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm && ln -s ../lib/node_modules/npm/bin/npx-cli.js /usr/local/bin/npx && node --version && npm --version
