# Stand-in for redis:7: Debian's Redis 7, listening on every interface of the container.
FROM local/debian:bookworm
RUN apt-get update -q && apt-get install -y -q --no-install-recommends redis-server && rm -rf /var/lib/apt/lists/*
EXPOSE 6379
CMD ["redis-server", "--bind", "0.0.0.0", "--protected-mode", "no", "--save", ""]
