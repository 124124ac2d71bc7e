#!/bin/sh
# tests/lib/ch_tls.sh DIR — a clickhouse-server of tests/lib/clickhouse.sh
# (DIR its directory, before it starts) also listening with TLS on
# 127.0.0.1: a self-signed certificate for 127.0.0.1 made with openssl
# (DIR/tls.crt, DIR/tls.key), a free port (DIR/https_port) and
# DIR/config.d/https.xml, which the server merges (ClickHouse 18.16's
# https_port and openSSL.server). Exit non-zero when any step fails.
set -eu
dir=$1
mkdir -p "$dir/config.d"
openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=127.0.0.1" \
	-addext "subjectAltName=IP:127.0.0.1" -keyout "$dir/tls.key" -out "$dir/tls.crt" 2>/dev/null
/usr/bin/python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])' >"$dir/https_port"
cat >"$dir/config.d/https.xml" <<XML
<?xml version="1.0"?>
<yandex><https_port>$(cat "$dir/https_port")</https_port>
  <openSSL><server><certificateFile>$dir/tls.crt</certificateFile>
    <privateKeyFile>$dir/tls.key</privateKeyFile><verificationMode>none</verificationMode>
    <loadDefaultCAFile>false</loadDefaultCAFile><disableProtocols>sslv2,sslv3</disableProtocols>
  </server></openSSL></yandex>
XML
