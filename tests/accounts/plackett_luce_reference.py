"""An independent Plackett-Luce update, written from the formulas, to check our ratings.

Weng & Lin (2011), "A Bayesian Approximation Method for Online Ranking", Algorithm 4, as
documented by OpenSkill (one player per team here):

* additive dynamics first: sigma_i^2 <- sigma_i^2 + tau^2;
* c = sqrt(sum_i (sigma_i^2 + beta^2));
* C_q = {i : r(i) >= r(q)} (q and everyone ranked the same or worse), S_q = sum over C_q of
  exp(mu_i / c), A_q = |{i : r(i) = r(q)}|, p_iq = exp(mu_i / c) / S_q;
* Omega_i = sigma_i^2 / c * sum_{q : r(q) <= r(i)} ([q == i] - p_iq) / A_q;
* Delta_i = gamma_i * sigma_i^2 / c^2 * sum_{q : r(q) <= r(i)} p_iq (1 - p_iq) / A_q,
  gamma_i = sigma_i / c;
* mu_i <- mu_i + Omega_i;  sigma_i <- sigma_i * sqrt(max(1 - Delta_i, kappa));
* ties need nothing more: A_q shares each tied rank's terms among the tied players.
  (openskill 6.2 has code meant to average the mu changes of tied players, but it compares
  each player with itself after the update, so it changes nothing; these formulas are what
  it computes.)

No OpenSkill code is used here.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

MU = 25.0
SIGMA = 25.0 / 3.0
BETA = 25.0 / 6.0
KAPPA = 0.0001
TAU = 25.0 / 300.0


def update(
    players: Sequence[tuple[float, float]], ranks: Sequence[int]
) -> list[tuple[float, float]]:
    n = len(players)
    mus = [mu for mu, _ in players]
    var = [sigma * sigma + TAU * TAU for _, sigma in players]
    c = math.sqrt(sum(v + BETA * BETA for v in var))
    e = [math.exp(mu / c) for mu in mus]
    s = [sum(e[i] for i in range(n) if ranks[i] >= ranks[q]) for q in range(n)]
    a = [sum(1 for i in range(n) if ranks[i] == ranks[q]) for q in range(n)]
    out_mu, out_sigma = [], []
    for i in range(n):
        omega = delta = 0.0
        for q in range(n):
            if ranks[q] > ranks[i]:
                continue
            p = e[i] / s[q]
            omega += ((1.0 if q == i else 0.0) - p) / a[q]
            delta += p * (1 - p) / a[q]
        sigma = math.sqrt(var[i])
        omega *= var[i] / c
        delta *= (sigma / c) * var[i] / (c * c)
        out_mu.append(mus[i] + omega)
        out_sigma.append(sigma * math.sqrt(max(1 - delta, KAPPA)))
    return list(zip(out_mu, out_sigma, strict=True))
