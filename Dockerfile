# nicfit's container image, the one docs/examples/nicfit-nfd-daemonset.yaml
# runs on every node: Debian packages only. The first stage builds the
# nicfit .deb from this tree with `make deb` (which installs Debian's build
# dependencies); the image is debian:bookworm-slim with that package
# installed by apt, so its libraries are the ones the package depends on.
#
#   docker build -t nicfit:0.1.0 .          (or: podman build, buildah bud)
#   docker tag nicfit:0.1.0 REGISTRY/nicfit:0.1.0 && docker push REGISTRY/nicfit:0.1.0
#
# tests/suites/k8s.sh checks this file and the DaemonSet against each other.
FROM debian:bookworm-slim AS build
ENV DEBIAN_FRONTEND=noninteractive
RUN apt-get update \
    && apt-get install -y --no-install-recommends make \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY . .
RUN make deb

FROM debian:bookworm-slim
ENV DEBIAN_FRONTEND=noninteractive
COPY --from=build /src/build/deb/nicfit_*.deb /tmp/
RUN apt-get update \
    && apt-get install -y --no-install-recommends /tmp/nicfit_*.deb \
    && rm -rf /var/lib/apt/lists/* /tmp/*.deb
LABEL org.opencontainers.image.title="nicfit" \
      org.opencontainers.image.description="network planner and auditor for AI/GPU servers and clusters" \
      org.opencontainers.image.version="0.1.0"
ENTRYPOINT ["nicfit"]
CMD ["--help"]
