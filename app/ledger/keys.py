"""Each station's own signing key, and the floor's: rows are signed where they are made.

A plain hash chain proves nothing against someone who can write rows, since they can write
the links too. So every link a station writes carries an Ed25519 signature (RFC 8032,
through the `cryptography` library) of its entry hash, made with a key that never leaves
the station PC: `signing-key` in the station's data directory, 0600, made on its first
start. A supervisor enrolls the key's public half in the ledger (`paigow stations enroll`);
`verify` then checks every link against the key of whoever wrote it.

What is signed: the bytes `paigow.sig/1|<entry_hash>`. The entry hash already covers the
chain, the link's number, the row's table, id and content hash and the link before it, so
a signature cannot be moved to another link or another chain.

A key is named by its id: the first 16 hex digits of the SHA-256 of its 32-byte public key,
shown to people in groups of four ("ab12 cd34 ef56 7890").
"""

from __future__ import annotations

import functools
import hashlib
import os
from dataclasses import dataclass
from pathlib import Path

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import (
    Ed25519PrivateKey,
    Ed25519PublicKey,
)

from drivers.private import open_private, private_folder

from .errors import LedgerError

KEY_FILE = "signing-key"
FORMAT = "paigow.sig/1"


def key_id(public_hex: str) -> str:
    return hashlib.sha256(bytes.fromhex(public_hex)).hexdigest()[:16]


def fingerprint(kid: str) -> str:
    """A key id as people compare it by eye."""
    return " ".join(kid[i:i + 4] for i in range(0, len(kid), 4))


def _message(entry_hash: str) -> bytes:
    return f"{FORMAT}|{entry_hash}".encode("ascii")


@dataclass(frozen=True, slots=True)
class Signer:
    """A private key that signs links, with its public half and id."""

    private: Ed25519PrivateKey
    public_hex: str
    key_id: str

    @classmethod
    def from_private(cls, private: Ed25519PrivateKey) -> Signer:
        raw = private.public_key().public_bytes(serialization.Encoding.Raw,
                                                serialization.PublicFormat.Raw)
        return cls(private, raw.hex(), key_id(raw.hex()))

    def sign(self, entry_hash: str) -> str:
        return self.private.sign(_message(entry_hash)).hex()


@functools.lru_cache(maxsize=256)
def _public(public_hex: str) -> Ed25519PublicKey:
    return Ed25519PublicKey.from_public_bytes(bytes.fromhex(public_hex))


@functools.lru_cache(maxsize=65536)
def signature_holds(public_hex: str, entry_hash: str, signature_hex: str) -> bool:
    """Whether the signature is the key's over that entry hash (remembered: the reads that
    count only signed rows ask again about the same links)."""
    try:
        _public(public_hex).verify(bytes.fromhex(signature_hex), _message(entry_hash))
    except (InvalidSignature, ValueError):
        return False
    return True


def load_or_make(directory: Path) -> Signer:
    """The key kept in `directory` (made, 0600 in a 0700 folder, when there is none)."""
    path = directory / KEY_FILE
    if path.is_file():
        return _read(path)
    try:
        private_folder(directory)  # 0700, and every missing folder above it
        private = Ed25519PrivateKey.generate()
        pem = private.private_bytes(serialization.Encoding.PEM,
                                    serialization.PrivateFormat.PKCS8,
                                    serialization.NoEncryption())
        tmp = path.with_name(f".{KEY_FILE}.{os.getpid()}")
        with open_private(tmp, "wb") as f:
            f.write(pem)
            f.flush()
            os.fsync(f.fileno())
        try:  # a link, not a rename: two first starts at once keep the same key
            os.link(tmp, path)
        except FileExistsError:
            return _read(path)
        finally:
            tmp.unlink()
    except OSError as e:
        raise LedgerError(f"the station cannot keep its signing key in {path} "
                          f"({e.strerror}): check the data directory's permissions and "
                          f"free space") from None
    return Signer.from_private(private)


def _read(path: Path) -> Signer:
    try:
        private = serialization.load_pem_private_key(path.read_bytes(), password=None)
    except (OSError, ValueError, TypeError):
        private = None
    if not isinstance(private, Ed25519PrivateKey):
        raise LedgerError(f"{path} should hold this station's signing key and does not: "
                          f"restore it from a backup, or delete it and have a supervisor "
                          f"enroll the new key (paigow stations enroll)")
    return Signer.from_private(private)
