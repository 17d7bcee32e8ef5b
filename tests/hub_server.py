"""A Hugging Face Hub-shaped HTTP server for the publish tests (127.0.0.1, a free port, a thread).

It implements the part of the Hub's HTTP API that ``huggingface_hub`` 2.4 (through ``datasets``'
``DatasetDict.push_to_hub``, ``HfApi.upload_file`` and ``HfApi.create_tag``) actually calls, found
by reading the client and by logging every request this server did not know:

- ``GET  /api/{type}s/{repo}[/revision/{rev}]``: repo info (``id``, ``sha``, ``private``, files);
  404 with ``X-Error-Code: RepoNotFound`` / ``RevisionNotFound`` as the Hub answers.
- ``POST /api/repos/create``: ``{name, organization, visibility, type}``; 409 when it exists.
- ``POST /api/validate-yaml``: the README front matter must be a YAML mapping (400 otherwise).
- ``POST /api/{type}s/{repo}/preupload/{rev}``: answers ``uploadMode`` per file as the Hub does:
  ``lfs`` when the repo's ``.gitattributes`` routes the name through LFS (a new repo gets the
  Hub's ``*.parquet filter=lfs``) or the file is at least ``lfs_threshold`` bytes (10 MiB),
  ``regular`` (content sent base64 inside the commit) otherwise. ``regular`` is not an option
  for the Parquet shards: ``push_to_hub`` deletes each shard file right after its pre-upload.
  Xet is never offered, so the client must run with Xet disabled (``HF_HUB_DISABLE_XET``; with
  ``hf_xet`` installed it would otherwise ask ``/api/.../xet-write-token/{rev}``, which this server
  does not know) and then uses the LFS batch API with the ``basic`` transfer:
- ``POST /{type}s/{repo}.git/info/lfs/objects/batch``, ``PUT /_lfs/{oid}`` (the upload href, no
  auth, as for a pre-signed S3 URL), ``POST /_lfs/verify``.
- ``POST /api/{type}s/{repo}/commit/{rev}``: the NDJSON commit (``header``, ``file`` base64,
  ``lfsFile`` by oid, ``deletedFile``, ``deletedFolder``); honours ``parentCommit`` (412 when
  stale); answers ``{commitUrl, commitOid}``.
- ``GET  /api/{type}s/{repo}/tree/{rev}[/{path}]``, ``POST .../paths-info/{rev}`` (form encoded),
  ``GET|HEAD /{type}s/{repo}/resolve/{rev}/{path}`` (with ``Range``): what ``HfFileSystem`` uses
  to list ``data/*`` and to read an existing README.md, and what ``load_dataset(repo_id,
  revision=tag)`` needs to read a release back.
- ``POST /api/{type}s/{repo}/tag/{rev}``: ``{tag, message}``; 409 when the tag exists.
- ``GET  /api/{type}s/{repo}/refs``, ``GET /api/whoami-v2``.
- ``GET  /api/agent-harnesses`` (fetched once per process by huggingface_hub): declined with 404,
  so the client caches nothing under HF_HOME.

Write requests need ``Authorization: Bearer <token>``; any Authorization header must carry the
token. Everything is kept in memory: repos with their commits (each a full snapshot of the files),
branches and tags; every request is recorded (method, path, headers) and unknown ones are listed in
``unknown`` and answered 404, so a test can see exactly what a client did.
"""

from __future__ import annotations

import base64
import fnmatch
import hashlib
import json
import re
import threading
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

import yaml
from local_http import LocalHTTPServer

_REPO_TYPES = ("model", "dataset", "space")
_PREFIX = {"dataset": "datasets/", "space": "spaces/", "model": ""}
_API_REPO = re.compile(
    r"^/api/(?P<type>models|datasets|spaces)/(?P<ns>[^/]+)/(?P<name>[^/]+)(?P<rest>/.*)?$"
)
_LFS_BATCH = re.compile(
    r"^/(?:(?P<type>datasets|spaces)/)?(?P<ns>[^/]+)/(?P<name>[^/]+)\.git/info/lfs/objects/batch$"
)
_RESOLVE = re.compile(
    r"^/(?:(?P<type>datasets|spaces)/)?(?P<ns>[^/]+)/(?P<name>[^/]+)/resolve/(?P<rev>[^/]+)/(?P<path>.+)$"
)
_SHA = re.compile(r"^[0-9a-f]{40}$")


def _lfs_tracked(files: dict[str, bytes], path: str) -> bool:
    """Whether the repo's ``.gitattributes`` sends ``path`` through LFS (simple patterns only)."""
    for line in files.get(".gitattributes", b"").decode().splitlines():
        parts = line.split()
        if len(parts) >= 2 and "filter=lfs" in parts[1:]:
            pattern = parts[0]
            target = path if "/" in pattern else path.rsplit("/", 1)[-1]
            if fnmatch.fnmatchcase(target, pattern.lstrip("/")):
                return True
    return False


def git_blob_oid(content: bytes) -> str:
    """The git blob id of ``content`` (what the Hub reports as a regular file's oid)."""
    return hashlib.sha1(b"blob %d\0" % len(content) + content).hexdigest()


@dataclass
class Commit:
    sha: str
    parent: str | None
    title: str
    description: str
    files: dict[str, bytes]
    """Full snapshot of the repo at this commit: path -> content."""
    lfs: set[str]
    """Paths stored through LFS in this snapshot."""
    date: str


@dataclass
class Repo:
    repo_type: str
    repo_id: str
    private: bool
    commits: dict[str, Commit] = field(default_factory=dict)
    branches: dict[str, str] = field(default_factory=dict)
    tags: dict[str, str] = field(default_factory=dict)
    tag_messages: dict[str, str | None] = field(default_factory=dict)

    def resolve(self, revision: str) -> str | None:
        """Commit sha of a branch, tag or (full) sha; None when unknown."""
        if revision in self.branches:
            return self.branches[revision]
        if revision in self.tags:
            return self.tags[revision]
        if _SHA.match(revision) and revision in self.commits:
            return revision
        return None

    def files(self, revision: str = "main") -> dict[str, bytes]:
        sha = self.resolve(revision)
        return dict(self.commits[sha].files) if sha else {}

    def history(self, revision: str = "main") -> list[Commit]:
        """Commits from ``revision`` back to the first one."""
        out = []
        sha = self.resolve(revision)
        while sha is not None:
            commit = self.commits[sha]
            out.append(commit)
            sha = commit.parent
        return out


@dataclass
class Recorded:
    method: str
    path: str
    query: dict[str, list[str]]
    headers: dict[str, str]


class _Reply(Exception):
    """Raised inside a handler to answer with an error status."""

    def __init__(
        self, status: int, message: str, *, code: str | None = None, body: Any = None
    ) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.code = code
        self.body = body


class HubServer(LocalHTTPServer):
    """The fake Hub. ``with HubServer(token=...) as hub: ... hub.url ...``."""

    def __init__(
        self, *, token: str | None = "hf_test_token", lfs_threshold: int = 10 * 1024 * 1024
    ) -> None:
        self.token = token
        self.lfs_threshold = lfs_threshold
        self.repos: dict[tuple[str, str], Repo] = {}
        self.lfs_objects: dict[str, bytes] = {}
        self.requests: list[Recorded] = []
        self.unknown: list[str] = []
        self.errors: list[str] = []
        self.lock = threading.RLock()

    # --- lifecycle ---------------------------------------------------------------------------

    def handler(self) -> type[_Handler]:
        hub = self

        class Handler(_Handler):
            server_hub = hub

        return Handler

    @property
    def url(self) -> str:
        return self.base_url

    # --- helpers for tests -------------------------------------------------------------------

    def repo(self, repo_id: str, repo_type: str = "dataset") -> Repo:
        return self.repos[(repo_type, repo_id)]

    def paths_requested(self) -> list[str]:
        return [f"{r.method} {r.path}" for r in self.requests]

    def authorizations(self) -> set[str]:
        """Every distinct Authorization header the server received."""
        return {r.headers["authorization"] for r in self.requests if "authorization" in r.headers}

    # --- state changes (called with the lock held) -------------------------------------------

    def _commit(
        self,
        repo: Repo,
        branch: str,
        title: str,
        description: str,
        files: dict[str, bytes],
        lfs: set[str],
    ) -> Commit:
        parent = repo.branches.get(branch)
        seed = f"{repo.repo_id}\0{parent}\0{title}\0{time.time_ns()}\0{len(repo.commits)}"
        sha = hashlib.sha1(seed.encode()).hexdigest()
        commit = Commit(
            sha=sha,
            parent=parent,
            title=title,
            description=description,
            files=files,
            lfs=lfs,
            date=datetime.now(UTC).isoformat().replace("+00:00", "Z"),
        )
        repo.commits[sha] = commit
        repo.branches[branch] = sha
        return commit


class _Handler(BaseHTTPRequestHandler):
    server_hub: HubServer
    protocol_version = "HTTP/1.1"

    # --- plumbing ----------------------------------------------------------------------------

    def log_message(self, format: str, *args: Any) -> None:
        pass  # quiet; requests are recorded in HubServer.requests

    def do_GET(self) -> None:
        self._dispatch("GET")

    def do_HEAD(self) -> None:
        self._dispatch("HEAD")

    def do_POST(self) -> None:
        self._dispatch("POST")

    def do_PUT(self) -> None:
        self._dispatch("PUT")

    def do_DELETE(self) -> None:
        self._dispatch("DELETE")

    def _body(self) -> bytes:
        if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
            chunks = []
            while True:
                size = int(self.rfile.readline().split(b";")[0].strip() or b"0", 16)
                if size == 0:
                    while self.rfile.readline() not in (b"\r\n", b"\n", b""):
                        pass
                    return b"".join(chunks)
                chunks.append(self.rfile.read(size))
                self.rfile.readline()
        length = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(length) if length else b""

    def _send(
        self,
        status: int,
        body: Any = None,
        *,
        headers: dict[str, str] | None = None,
        raw: bytes | None = None,
        content_type: str = "application/json",
    ) -> None:
        data = raw if raw is not None else b"" if body is None else json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        for key, value in (headers or {}).items():
            self.send_header(key, value)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(data)

    def _dispatch(self, method: str) -> None:
        hub = self.server_hub
        split = urlsplit(self.path)
        path = split.path
        query = parse_qs(split.query)
        self.body = self._body()
        with hub.lock:
            hub.requests.append(
                Recorded(method, path, query, {k.lower(): v for k, v in self.headers.items()})
            )
        try:
            self._route(method, path, query)
        except _Reply as reply:
            headers = {}
            if reply.code:
                headers["X-Error-Code"] = reply.code
            headers["X-Error-Message"] = reply.message
            body = reply.body if reply.body is not None else {"error": reply.message}
            self._send(reply.status, body, headers=headers)
        except Exception as exc:  # a bug here: answer 500 and keep it for the test to see
            with hub.lock:
                hub.errors.append(f"{method} {path}: {exc!r}")
            self._send(500, {"error": f"fake hub failed: {exc!r}"})

    def _auth(self, *, required: bool) -> None:
        """Check the bearer token: wrong is always 401; missing is 401 when ``required``."""
        token = self.server_hub.token
        header = self.headers.get("Authorization")
        if header is None:
            if required and token is not None:
                raise _Reply(401, "Unauthorized: a write token is required")
            return
        if token is not None and header != f"Bearer {token}":
            raise _Reply(401, "Invalid credentials in Authorization header")

    def _json(self) -> Any:
        try:
            return json.loads(self.body or b"null")
        except json.JSONDecodeError as exc:
            raise _Reply(400, f"invalid JSON body: {exc}") from exc

    # --- routing -----------------------------------------------------------------------------

    def _route(self, method: str, path: str, query: dict[str, list[str]]) -> None:
        hub = self.server_hub
        if method == "POST" and path == "/api/repos/create":
            return self._create_repo()
        if method == "POST" and path == "/api/validate-yaml":
            return self._validate_yaml()
        if method == "GET" and path == "/api/agent-harnesses":
            # Fetched once by huggingface_hub to name the calling agent: decline, so nothing is
            # cached under HF_HOME.
            raise _Reply(404, "not served by the fake hub")
        if method == "GET" and path == "/api/whoami-v2":
            self._auth(required=True)
            return self._send(200, {"type": "user", "name": "tester", "orgs": []})
        if method == "PUT" and path.startswith("/_lfs/"):
            oid = path.removeprefix("/_lfs/")
            if hashlib.sha256(self.body).hexdigest() != oid:
                raise _Reply(400, f"LFS object does not match its oid {oid}")
            with hub.lock:
                hub.lfs_objects[oid] = self.body
            return self._send(200, raw=b"", content_type="text/plain")
        if method == "POST" and path == "/_lfs/verify":
            self._auth(required=True)
            oid = self._json().get("oid")
            if oid not in hub.lfs_objects:
                raise _Reply(404, f"LFS object {oid} was not uploaded")
            return self._send(200, {})
        if (m := _LFS_BATCH.match(path)) and method == "POST":
            return self._lfs_batch(self._repo(m, write=True))
        if (m := _RESOLVE.match(path)) and method in ("GET", "HEAD"):
            return self._resolve(self._repo(m, write=False), unquote(m["rev"]), m["path"])
        if m := _API_REPO.match(path):
            return self._repo_api(method, m, query)
        return self._unknown(method, path)

    def _unknown(self, method: str, path: str) -> None:
        with self.server_hub.lock:
            self.server_hub.unknown.append(f"{method} {path}")
        raise _Reply(404, f"fake hub: no route for {method} {path}")

    def _repo(self, m: re.Match[str], *, write: bool) -> Repo:
        self._auth(required=write)
        type_part = m["type"]
        repo_type = type_part[:-1] if type_part else "model"
        repo_id = f"{unquote(m['ns'])}/{unquote(m['name'])}"
        with self.server_hub.lock:
            repo = self.server_hub.repos.get((repo_type, repo_id))
        if repo is None or (
            repo.private and self.headers.get("Authorization") is None and self.server_hub.token
        ):
            raise _Reply(404, "Repository not found", code="RepoNotFound")
        return repo

    def _repo_api(self, method: str, m: re.Match[str], query: dict[str, list[str]]) -> None:
        rest = m["rest"] or ""
        parts = [unquote(p) for p in rest.split("/")[1:]] if rest else []
        write = method in ("POST", "PUT", "DELETE") and parts[:1] != ["paths-info"]
        repo = self._repo(m, write=write)
        if method == "GET" and not parts:
            return self._info(repo, "main")
        if method == "GET" and len(parts) == 2 and parts[0] == "revision":
            return self._info(repo, parts[1])
        if method == "POST" and len(parts) == 2 and parts[0] == "preupload":
            return self._preupload(repo, parts[1])
        if method == "POST" and len(parts) == 2 and parts[0] == "commit":
            return self._commit(repo, parts[1], query)
        if method == "GET" and len(parts) >= 2 and parts[0] == "tree":
            return self._tree(repo, parts[1], "/".join(parts[2:]), query)
        if method == "POST" and len(parts) == 2 and parts[0] == "paths-info":
            return self._paths_info(repo, parts[1])
        if method == "POST" and len(parts) == 2 and parts[0] == "tag":
            return self._tag(repo, parts[1])
        if method == "GET" and parts == ["refs"]:
            return self._refs(repo)
        return self._unknown(method, self.path)

    # --- endpoints ---------------------------------------------------------------------------

    def _create_repo(self) -> None:
        self._auth(required=True)
        hub = self.server_hub
        payload = self._json() or {}
        repo_type = payload.get("type") or "model"
        if repo_type not in _REPO_TYPES:
            raise _Reply(400, f"invalid repo type {repo_type!r}")
        name, org = payload.get("name"), payload.get("organization")
        if not name or not re.fullmatch(r"[\w.-]+", name):
            raise _Reply(400, f"invalid repo name {name!r}")
        repo_id = f"{org or 'tester'}/{name}"
        private = payload.get("visibility") == "private" or payload.get("private") is True
        with hub.lock:
            if (repo_type, repo_id) in hub.repos:
                raise _Reply(409, "You already created this repo", body={"error": "exists"})
            repo = Repo(repo_type=repo_type, repo_id=repo_id, private=private)
            hub.repos[(repo_type, repo_id)] = repo
            attributes = b"*.parquet filter=lfs diff=lfs merge=lfs -text\n"
            hub._commit(repo, "main", "initial commit", "", {".gitattributes": attributes}, set())
        url = f"{hub.url}/{_PREFIX[repo_type]}{repo_id}"
        self._send(200, {"url": url, "name": repo_id, "id": repo_id})

    def _validate_yaml(self) -> None:
        payload = self._json() or {}
        content = payload.get("content", "")
        match = re.match(r"^---\r?\n(.*?)\r?\n---\r?\n", content, re.DOTALL)
        if match is None:
            return self._send(200, {"errors": [], "warnings": [{"message": "empty metadata"}]})
        try:
            data = yaml.safe_load(match.group(1))
        except yaml.YAMLError as exc:
            raise _Reply(
                400, "invalid YAML", body={"errors": [{"message": f"invalid YAML: {exc}"}]}
            ) from exc
        if not isinstance(data, dict):
            raise _Reply(
                400, "metadata is not a mapping", body={"errors": [{"message": "not a mapping"}]}
            )
        return self._send(200, {"errors": [], "warnings": []})

    def _info(self, repo: Repo, revision: str) -> None:
        with self.server_hub.lock:
            sha = repo.resolve(revision)
            if sha is None:
                raise _Reply(404, f"Invalid rev id: {revision}", code="RevisionNotFound")
            commit = repo.commits[sha]
            files = sorted(commit.files)
        self._send(
            200,
            {
                "_id": hashlib.md5(repo.repo_id.encode()).hexdigest()[:24],
                "id": repo.repo_id,
                "author": repo.repo_id.split("/")[0],
                "sha": sha,
                "private": repo.private,
                "gated": False,
                "disabled": False,
                "lastModified": commit.date,
                "createdAt": repo.history(sha)[-1].date,
                "tags": [],
                "downloads": 0,
                "likes": 0,
                "siblings": [{"rfilename": name} for name in files],
            },
        )

    def _preupload(self, repo: Repo, revision: str) -> None:
        hub = self.server_hub
        payload = self._json() or {}
        with hub.lock:
            current = repo.files(revision) if repo.resolve(revision) else {}
        out = []
        for item in payload.get("files", []):
            size = int(item["size"])
            lfs = size >= hub.lfs_threshold or _lfs_tracked(current, item["path"])
            existing = current.get(item["path"])
            oid = None
            if existing is not None:
                oid = hashlib.sha256(existing).hexdigest() if lfs else git_blob_oid(existing)
            out.append(
                {
                    "path": item["path"],
                    "uploadMode": "lfs" if lfs else "regular",
                    "shouldIgnore": False,
                    "oid": oid,
                }
            )
        self._send(200, {"files": out, "commitOid": repo.resolve(revision)})

    def _lfs_batch(self, repo: Repo) -> None:
        hub = self.server_hub
        payload = self._json() or {}
        if payload.get("operation") != "upload":
            raise _Reply(422, "only uploads are supported")
        if "basic" not in payload.get("transfers", ["basic"]):
            raise _Reply(422, "only the basic transfer is supported")
        objects = []
        for obj in payload.get("objects", []):
            oid, size = obj["oid"], int(obj["size"])
            entry: dict[str, Any] = {"oid": oid, "size": size, "authenticated": True}
            if oid not in hub.lfs_objects:
                entry["actions"] = {
                    "upload": {"href": f"{hub.url}/_lfs/{oid}"},
                    "verify": {"href": f"{hub.url}/_lfs/verify"},
                }
            objects.append(entry)
        body = {"transfer": "basic", "objects": objects, "hash_algo": "sha256"}
        self._send(200, body, content_type="application/vnd.git-lfs+json")

    def _commit(self, repo: Repo, revision: str, query: dict[str, list[str]]) -> None:
        hub = self.server_hub
        if query.get("create_pr"):
            raise _Reply(400, "pull requests are not supported by the fake hub")
        lines = [json.loads(line) for line in self.body.splitlines() if line.strip()]
        if not lines or lines[0].get("key") != "header":
            raise _Reply(400, "commit payload must start with a header line")
        header = lines[0]["value"]
        with hub.lock:
            if revision not in repo.branches:
                raise _Reply(404, f"Invalid rev id: {revision}", code="RevisionNotFound")
            head = repo.branches[revision]
            parent = header.get("parentCommit")
            if parent is not None and parent != head:
                raise _Reply(412, f"parent commit {parent} is not the head {head}")
            files = dict(repo.commits[head].files)
            lfs_paths = set(repo.commits[head].lfs)
            for line in lines[1:]:
                key, value = line["key"], line["value"]
                path = value["path"]
                if key == "file":
                    if value.get("encoding") != "base64":
                        raise _Reply(400, f"unsupported encoding for {path}")
                    files[path] = base64.b64decode(value["content"])
                    lfs_paths.discard(path)
                elif key == "lfsFile":
                    blob = hub.lfs_objects.get(value["oid"])
                    if blob is None:
                        raise _Reply(422, f"LFS object {value['oid']} for {path} was not uploaded")
                    files[path] = blob
                    lfs_paths.add(path)
                elif key == "deletedFile":
                    if path not in files:
                        raise _Reply(
                            404, "A file with this name doesn't exist", code="EntryNotFound"
                        )
                    del files[path]
                    lfs_paths.discard(path)
                elif key == "deletedFolder":
                    prefix = path.rstrip("/") + "/"
                    for name in [n for n in files if n.startswith(prefix)]:
                        del files[name]
                        lfs_paths.discard(name)
                else:
                    raise _Reply(400, f"unknown commit operation {key!r}")
            commit = hub._commit(
                repo,
                revision,
                header.get("summary", ""),
                header.get("description", ""),
                files,
                lfs_paths,
            )
        url = f"{hub.url}/{_PREFIX[repo.repo_type]}{repo.repo_id}/commit/{commit.sha}"
        self._send(200, {"success": True, "commitOid": commit.sha, "commitUrl": url})

    def _entries(self, repo: Repo, sha: str, paths: list[str], *, recursive: bool) -> list[dict]:
        """Tree entries for ``paths`` (a file or a folder each) and, for folders, their content."""
        commit = repo.commits[sha]
        last = {"id": sha, "title": commit.title, "date": commit.date}
        out: list[dict] = []

        def file_entry(name: str) -> dict:
            content = commit.files[name]
            entry: dict[str, Any] = {
                "type": "file",
                "path": name,
                "size": len(content),
                "oid": git_blob_oid(content),
                "lastCommit": last,
            }
            if name in commit.lfs:
                sha256 = hashlib.sha256(content).hexdigest()
                entry["lfs"] = {"oid": sha256, "size": len(content), "pointerSize": 134}
            return entry

        for path in paths:
            if path in commit.files:
                out.append(file_entry(path))
                continue
            prefix = f"{path}/" if path else ""
            children = sorted(n for n in commit.files if n.startswith(prefix))
            folders: set[str] = set()
            for name in children:
                rel = name[len(prefix) :]
                if "/" in rel and not recursive:
                    folders.add(prefix + rel.split("/")[0])
                else:
                    if recursive:
                        parts = rel.split("/")[:-1]
                        for i in range(1, len(parts) + 1):
                            folders.add(prefix + "/".join(parts[:i]))
                    out.append(file_entry(name))
            for folder in sorted(folders):
                oid = hashlib.sha1(folder.encode()).hexdigest()
                out.append({"type": "directory", "path": folder, "oid": oid, "lastCommit": last})
        return out

    def _tree(self, repo: Repo, revision: str, path: str, query: dict[str, list[str]]) -> None:
        recursive = query.get("recursive", ["False"])[0].lower() == "true"
        with self.server_hub.lock:
            sha = repo.resolve(revision)
            if sha is None:
                raise _Reply(404, f"Invalid rev id: {revision}", code="RevisionNotFound")
            files = repo.commits[sha].files
            if path and path not in files and not any(n.startswith(f"{path}/") for n in files):
                raise _Reply(404, f"{path} does not exist", code="EntryNotFound")
            entries = self._entries(repo, sha, [path], recursive=recursive)
        self._send(200, entries)

    def _paths_info(self, repo: Repo, revision: str) -> None:
        form = parse_qs(self.body.decode())
        paths = form.get("paths", [])
        with self.server_hub.lock:
            sha = repo.resolve(revision)
            if sha is None:
                raise _Reply(404, f"Invalid rev id: {revision}", code="RevisionNotFound")
            files = repo.commits[sha].files
            found = []
            for path in paths:
                path = path.strip("/")
                if path in files:
                    found.extend(self._entries(repo, sha, [path], recursive=False))
                elif any(n.startswith(f"{path}/") for n in files):
                    commit = repo.commits[sha]
                    found.append(
                        {
                            "type": "directory",
                            "path": path,
                            "oid": hashlib.sha1(path.encode()).hexdigest(),
                            "lastCommit": {"id": sha, "title": commit.title, "date": commit.date},
                        }
                    )
        self._send(200, found)

    def _resolve(self, repo: Repo, revision: str, path: str) -> None:
        path = unquote(path)
        with self.server_hub.lock:
            sha = repo.resolve(revision)
            if sha is None:
                raise _Reply(404, f"Invalid rev id: {revision}", code="RevisionNotFound")
            content = repo.commits[sha].files.get(path)
        if content is None:
            raise _Reply(404, f"Entry not found: {path}", code="EntryNotFound")
        headers = {
            "X-Repo-Commit": sha,
            "ETag": f'"{git_blob_oid(content)}"',
            "Accept-Ranges": "bytes",
        }
        status = 200
        range_header = self.headers.get("Range")
        if range_header and (m := re.fullmatch(r"bytes=(\d+)-(\d*)", range_header.strip())):
            start = int(m.group(1))
            end = int(m.group(2)) if m.group(2) else len(content) - 1
            end = min(end, len(content) - 1)
            if start >= len(content) and content:
                raise _Reply(416, "Requested range not satisfiable")
            headers["Content-Range"] = f"bytes {start}-{end}/{len(content)}"
            content = content[start : end + 1]
            status = 206
        self._send(status, raw=content, headers=headers, content_type="application/octet-stream")

    def _tag(self, repo: Repo, revision: str) -> None:
        payload = self._json() or {}
        tag = payload.get("tag")
        if not tag or not re.fullmatch(r"[\w.\-/]+", tag):
            raise _Reply(400, f"invalid tag name {tag!r}")
        with self.server_hub.lock:
            sha = repo.resolve(revision)
            if sha is None:
                raise _Reply(404, f"Invalid rev id: {revision}", code="RevisionNotFound")
            if tag in repo.tags:
                raise _Reply(409, f"Tag {tag} already exists")
            repo.tags[tag] = sha
            repo.tag_messages[tag] = payload.get("message")
        self._send(200, {})

    def _refs(self, repo: Repo) -> None:
        with self.server_hub.lock:
            branches = [
                {"name": n, "ref": f"refs/heads/{n}", "targetCommit": s}
                for n, s in repo.branches.items()
            ]
            tags = [
                {"name": n, "ref": f"refs/tags/{n}", "targetCommit": s}
                for n, s in repo.tags.items()
            ]
        self._send(200, {"branches": branches, "tags": tags, "converts": []})
