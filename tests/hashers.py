"""The tests' password hasher: Django's PBKDF2 under its own algorithm name, with 1,000
iterations instead of Django's 1,000,000. At full strength every user a test makes with a
password (``make_user``), and every guess at an unknown user's password, cost 0.36-0.7 s of
CPU on the CI machine: a throttle test of 81 guesses took 55 s. The hashes it makes are
ordinary ``pbkdf2_sha256`` hashes that carry their iteration count, so a server process a
test starts (with the site's own hashers) checks them too, and upgrades one to full
strength when its person signs in there, as it would any older hash."""

from __future__ import annotations

from django.contrib.auth.hashers import PBKDF2PasswordHasher


class QuickPBKDF2PasswordHasher(PBKDF2PasswordHasher):
    iterations = 1_000
