"""Two (or more) real Syncthing instances on 127.0.0.1 only, for the sync tests and
`make sync-demo`.

Syncthing must never reach beyond loopback, so each instance's configuration is written
before its first start: `syncthing generate --no-default-folder`, then in config.xml
global and local discovery, relays, NAT traversal and crash reporting off, usage
reporting refused (urAccepted -1), no browser, the sync protocol listening on
tcp://127.0.0.1:PORT only, the GUI/REST API on 127.0.0.1, and each peer's address given
explicitly; it runs with STNOUPGRADE=1 (no upgrade check). `listening_addresses()`
reads what its sockets are actually bound to, from /proc."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import time
import urllib.request
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

FOLDER_ID = "desktop-mem-sync"


def available() -> bool:
    return shutil.which("syncthing") is not None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Syncthing:
    def __init__(self, home: Path, name: str, folder: Path) -> None:
        self.home = home
        self.name = name
        self.folder = folder
        self.port = free_port()
        self.gui_port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None
        self.log = home / "syncthing.log"
        home.mkdir(parents=True, exist_ok=True)
        folder.mkdir(parents=True, exist_ok=True)
        subprocess.run(
            ["syncthing", "generate", "--home", str(home), "--no-default-folder",
             "--skip-port-probing"],
            check=True, capture_output=True, env=self._env(),
        )  # fmt: skip
        self.tree = ET.parse(home / "config.xml")
        root = self.tree.getroot()
        self.device_id = root.find("device").get("id")  # type: ignore[union-attr]
        self.api_key = root.find("gui/apikey").text  # type: ignore[union-attr]
        self.peers: list[Syncthing] = []

    def _env(self) -> dict[str, str]:
        return dict(os.environ, STNOUPGRADE="1", STNORESTART="1", STNODEFAULTFOLDER="1",
                    HOME=str(self.home))  # fmt: skip

    def configure(self, peers: list[Syncthing]) -> None:
        """Loopback only, and one shared folder with each peer at its explicit address."""
        self.peers = peers
        root = self.tree.getroot()
        options = root.find("options")
        assert options is not None
        settings = {
            "listenAddress": f"tcp://127.0.0.1:{self.port}",
            "globalAnnounceEnabled": "false",
            "localAnnounceEnabled": "false",
            "relaysEnabled": "false",
            "natEnabled": "false",
            "crashReportingEnabled": "false",
            "urAccepted": "-1",
            "startBrowser": "false",
            "autoUpgradeIntervalH": "0",
            "announceLANAddresses": "false",
            "reconnectionIntervalS": "1",
        }
        for key, value in settings.items():
            nodes = options.findall(key)
            if not nodes:
                nodes = [ET.SubElement(options, key)]
            for extra in nodes[1:]:
                options.remove(extra)
            nodes[0].text = value
        gui = root.find("gui/address")
        assert gui is not None
        gui.text = f"127.0.0.1:{self.gui_port}"
        for peer in peers:
            dev = ET.SubElement(root, "device", id=peer.device_id, name=peer.name,
                                compression="metadata", introducer="false")  # fmt: skip
            ET.SubElement(dev, "address").text = f"tcp://127.0.0.1:{peer.port}"
        folder = ET.SubElement(root, "folder", id=FOLDER_ID, label="desktop-mem",
                               path=str(self.folder), type="sendreceive",
                               rescanIntervalS="3600", fsWatcherEnabled="true",
                               fsWatcherDelayS="1")  # fmt: skip
        for member in [self, *peers]:
            ET.SubElement(folder, "device", id=member.device_id)
        self.tree.write(self.home / "config.xml")

    def start(self) -> None:
        log = open(self.log, "ab")  # noqa: SIM115 - the process keeps it
        self.proc = subprocess.Popen(
            ["syncthing", "serve", "--home", str(self.home), "--no-browser", "--no-restart",
             f"--gui-address=127.0.0.1:{self.gui_port}"],
            env=self._env(), stdout=log, stderr=subprocess.STDOUT,
        )  # fmt: skip
        log.close()

    def api(self, path: str, method: str = "GET") -> Any:
        req = urllib.request.Request(
            f"http://127.0.0.1:{self.gui_port}{path}",
            method=method,
            headers={"X-API-Key": str(self.api_key)},
        )
        with urllib.request.urlopen(req, timeout=10) as resp:
            body = resp.read()
        return json.loads(body) if body else None

    def wait_ready(self, deadline: float) -> None:
        while time.monotonic() < deadline:
            assert self.proc is not None and self.proc.poll() is None, self.log.read_text()[-2000:]
            try:
                if self.api("/rest/system/ping") == {"ping": "pong"}:
                    return
            except OSError:
                pass
            time.sleep(0.2)
        raise TimeoutError(f"syncthing {self.name} did not start: {self.log.read_text()[-2000:]}")

    def connected(self) -> bool:
        conns = self.api("/rest/system/connections")["connections"]
        return all(conns.get(p.device_id, {}).get("connected") for p in self.peers)

    def scan(self) -> None:
        self.api(f"/rest/db/scan?folder={FOLDER_ID}", method="POST")

    def idle(self) -> bool:
        status = self.api(f"/rest/db/status?folder={FOLDER_ID}")
        return status.get("state") == "idle" and not status.get("needTotalItems")

    def listening_addresses(self) -> list[str]:
        """The local addresses of every socket the process holds (from /proc)."""
        assert self.proc is not None
        inodes = set()
        for pid in _family(self.proc.pid):
            try:
                fds = list(Path(f"/proc/{pid}/fd").iterdir())
            except OSError:
                continue
            for fd in fds:
                try:
                    target = os.readlink(fd)
                except OSError:
                    continue
                if target.startswith("socket:["):
                    inodes.add(target[8:-1])
        out = []
        for table in ("tcp", "tcp6", "udp", "udp6"):
            path = Path(f"/proc/{self.proc.pid}/net/{table}")
            for line in path.read_text().splitlines()[1:]:
                parts = line.split()
                if parts[9] in inodes:
                    out.append(f"{table}:{_address(parts[1])}")
        return out

    def stop(self) -> None:
        if self.proc is None:
            return
        try:
            self.api("/rest/system/shutdown", method="POST")
            self.proc.wait(timeout=30)
        except (OSError, subprocess.TimeoutExpired):
            self.proc.kill()
            self.proc.wait(timeout=30)
        self.proc = None


def _family(pid: int) -> list[int]:
    """A process and all its descendants (Syncthing's monitor starts the real one)."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        children.setdefault(ppid, []).append(int(entry.name))
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        todo += children.get(p, [])
    return out


def _address(hex_addr: str) -> str:
    host, port = hex_addr.split(":")
    if len(host) == 8:
        ip = ".".join(str(int(host[i : i + 2], 16)) for i in (6, 4, 2, 0))
    else:
        words = [host[i : i + 8] for i in range(0, 32, 8)]
        raw = b"".join(bytes.fromhex(w)[::-1] for w in words)
        ip = socket.inet_ntop(socket.AF_INET6, raw)
    return f"{ip}:{int(port, 16)}"


def loopback_only(addresses: list[str]) -> bool:
    """Every socket on loopback (and at least one: the listener)."""
    if not addresses:
        return False
    for a in addresses:
        ip = a.split(":", 1)[1].rsplit(":", 1)[0]
        if ip not in ("127.0.0.1", "::1", "::ffff:127.0.0.1"):
            return False
    return True


def pair(homes: list[Path], folders: list[Path]) -> list[Syncthing]:
    """Instances, each configured with all the others, started and connected."""
    nodes = [
        Syncthing(h, f"node{n}", f) for n, (h, f) in enumerate(zip(homes, folders, strict=True))
    ]
    for node in nodes:
        node.configure([p for p in nodes if p is not node])
    for node in nodes:
        node.start()
    deadline = time.monotonic() + 120
    for node in nodes:
        node.wait_ready(deadline)
    while not all(n.connected() for n in nodes):
        if time.monotonic() > deadline:
            raise TimeoutError("the syncthing instances did not connect to each other")
        time.sleep(0.2)
    return nodes
