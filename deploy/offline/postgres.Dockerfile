# Stand-in for postgres:16: Debian's PostgreSQL 15 with the official image's environment
# (POSTGRES_USER, POSTGRES_PASSWORD, POSTGRES_DB; data in /var/lib/postgresql/data).
FROM local/debian:bookworm
RUN apt-get update -q && apt-get install -y -q --no-install-recommends postgresql-15 && rm -rf /var/lib/apt/lists/*
ENV PATH=/usr/lib/postgresql/15/bin:$PATH PGDATA=/var/lib/postgresql/data
COPY postgres-entrypoint.sh /usr/local/bin/
EXPOSE 5432
ENTRYPOINT ["/usr/local/bin/postgres-entrypoint.sh"]
