# SPDX-License-Identifier: Apache-2.0
"""A private clickhouse-server for the fleet test: its own config, users and data directory under
`root`, on free local ports, stopped by stop(). Never the system instance or its data."""
import ctypes
import os
import signal
import socket
import subprocess
import time
import urllib.request
import urllib.parse

SERVER = "/usr/bin/clickhouse-server"


def find_server():
    """The clickhouse-server program, or None. EVREC_CLICKHOUSE_SERVER names it (only it)."""
    env = os.environ.get("EVREC_CLICKHOUSE_SERVER")
    for p in ((env,) if env else ("/usr/sbin/clickhouse-server", SERVER)):
        if p and os.access(p, os.X_OK):
            return p
    return None


def _die_with_parent():
    """In the child: SIGTERM when the test dies (ctest's timeout kills it): no server outlives it."""
    try:
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG (Linux)
    except (OSError, AttributeError):
        pass


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


USERS = """<?xml version="1.0"?>
<yandex>
  <profiles><default><max_memory_usage>2000000000</max_memory_usage></default></profiles>
  <users><default><password></password><networks><ip>127.0.0.1</ip><ip>::1</ip></networks>
    <profile>default</profile><quota>default</quota></default></users>
  <quotas><default></default></quotas>
</yandex>
"""


def remote_servers(name, tcp_ports):
    """A <remote_servers> cluster `name`: one shard per local TCP port."""
    shards = "".join("<shard><replica><host>127.0.0.1</host><port>%d</port></replica></shard>" % p
                     for p in tcp_ports)
    return "<remote_servers><%s>%s</%s></remote_servers>" % (name, shards, name)


class Server:
    def __init__(self, root, http_port, tcp_port, remote=""):
        self.root, self.http, self.tcp = root, http_port, tcp_port
        for d in ("data", "tmp", "user_files", "format_schemas", "log"):
            os.makedirs(os.path.join(root, d), exist_ok=True)
        with open(os.path.join(root, "users.xml"), "w") as f:
            f.write(USERS)
        cfg = """<?xml version="1.0"?>
<yandex>
  <logger><level>warning</level><log>{r}/log/server.log</log><errorlog>{r}/log/error.log</errorlog>
    <size>10M</size><count>1</count></logger>
  <http_port>{h}</http_port><tcp_port>{t}</tcp_port><listen_host>127.0.0.1</listen_host>
  <max_connections>64</max_connections><keep_alive_timeout>3</keep_alive_timeout>
  <max_concurrent_queries>16</max_concurrent_queries>
  <uncompressed_cache_size>0</uncompressed_cache_size><mark_cache_size>268435456</mark_cache_size>
  <path>{r}/data/</path><tmp_path>{r}/tmp/</tmp_path><user_files_path>{r}/user_files/</user_files_path>
  <format_schema_path>{r}/format_schemas/</format_schema_path>
  <users_config>{r}/users.xml</users_config><default_profile>default</default_profile>
  <default_database>default</default_database>
  {remote}
</yandex>
""".format(r=root, h=http_port, t=tcp_port, remote=remote)
        self.config = os.path.join(root, "config.xml")
        with open(self.config, "w") as f:
            f.write(cfg)
        self.proc = None
        self.url = "http://127.0.0.1:%d/" % http_port

    def start(self, program, timeout=60):
        log = open(os.path.join(self.root, "log", "stdout.log"), "w")
        self.proc = subprocess.Popen([program, "--config-file=" + self.config], stdout=log, stderr=log,
                                     cwd=self.root, preexec_fn=_die_with_parent)
        end = time.time() + timeout
        while time.time() < end:
            if self.proc.poll() is not None:
                raise RuntimeError("clickhouse-server exited with %d: see %s/log" % (self.proc.returncode, self.root))
            try:
                if urllib.request.urlopen(self.url + "ping", timeout=2).read().strip() == b"Ok.":
                    return
            except OSError:
                time.sleep(0.2)
        raise RuntimeError("clickhouse-server did not answer in %d s: see %s/log" % (timeout, self.root))

    def query(self, sql, database=None):
        """The answer to `sql` (text)."""
        url = self.url + ("?" + urllib.parse.urlencode({"database": database}) if database else "")
        req = urllib.request.Request(url, data=sql.encode(), method="POST")
        try:
            return urllib.request.urlopen(req, timeout=120).read().decode()
        except urllib.error.HTTPError as e:
            raise RuntimeError("ClickHouse: %s\nquery: %s" % (e.read().decode(errors="replace"), sql))

    def stop(self):
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.proc = None
