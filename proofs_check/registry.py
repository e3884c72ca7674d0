"""The registry of the papers whose claims are checked."""

from __future__ import annotations

from collections.abc import Iterable

from proofs_check.claims import Claim
from proofs_check.paper import Paper

__all__ = ["Registry"]


class Registry:
    """Papers, in order, and their claims (ids unique across papers)."""

    def __init__(self, papers: Iterable[Paper] = ()) -> None:
        self._papers: dict[str, Paper] = {}
        for paper in papers:
            self.add(paper)

    def add(self, paper: Paper) -> Paper:
        """Add ``paper``; ValueError if its key is taken by another paper or one of its claim ids is taken."""
        known = self._papers.get(paper.key)
        if known is paper:
            return paper
        if known is not None:
            raise ValueError(f"duplicate paper key {paper.key!r}")
        taken = {c.id for p in self._papers.values() for c in p.claims()}
        clash = [c.id for c in paper.claims() if c.id in taken]
        if clash:
            raise ValueError(f"duplicate claim id {clash[0]!r} (paper {paper.key!r})")
        self._papers[paper.key] = paper
        return paper

    def claims(self, paper: str | None = None) -> list[Claim]:
        """Claims in declaration order, optionally only those of ``paper`` (ValueError if unknown)."""
        if paper is None:
            return [c for p in self._papers.values() for c in p.claims()]
        return self.paper(paper).claims()

    def paper(self, key: str) -> Paper:
        """The paper registered as ``key``; ValueError naming the known papers otherwise."""
        if key not in self._papers:
            known = ", ".join(self._papers) or "none"
            raise ValueError(f"unknown paper {key!r}; known papers: {known}")
        return self._papers[key]

    def papers(self) -> list[str]:
        """Paper keys in registration order."""
        return list(self._papers)

    def __len__(self) -> int:
        return sum(len(p.claims()) for p in self._papers.values())
