#!/bin/sh
# Creates the secrets of the compose kit once: database and S3 passwords, an admin API token for
# the CLI (secrets/admin.token), a viewer token for Prometheus (../prometheus/secrets/), and .env
# with what compose needs (tokens only as SHA-256). Re-running keeps what exists.
set -eu
cd "$(dirname "$0")"
umask 077
random() { head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n'; }
digest() { printf %s "$1" | sha256sum | cut -d' ' -f1; }

mkdir -p secrets ../prometheus/secrets backups
[ -f secrets/admin.token ] || random > secrets/admin.token
[ -f ../prometheus/secrets/mailrestore-metrics.token ] || random > ../prometheus/secrets/mailrestore-metrics.token
chmod 0644 ../prometheus/secrets/mailrestore-metrics.token # read by the Prometheus container's user
if [ ! -f .env ]; then
  cat > .env <<ENV
MARIADB_PASSWORD=$(random)
MARIADB_ROOT_PASSWORD=$(random)
S3_ACCESS_KEY=mailrestore
S3_SECRET_KEY=$(random)
GRAFANA_ADMIN_PASSWORD=$(random)
ADMIN_TOKEN_SHA256=$(digest "$(cat secrets/admin.token)")
METRICS_TOKEN_SHA256=$(digest "$(cat ../prometheus/secrets/mailrestore-metrics.token)")
ENV
fi
echo "secrets ready: .env, secrets/admin.token, ../prometheus/secrets/mailrestore-metrics.token"
