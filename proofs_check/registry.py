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
        """Add ``paper`` (adding the same paper again does nothing).

        Arguments:
            paper: the paper to register under its key.

        Returns:
            ``paper``, so that the call can wrap its construction.

        Raises:
            ValueError: its key is taken by another paper, or one of its claim ids by a claim of another paper.
        """
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
        """Claims in declaration order, paper by paper.

        Arguments:
            paper: a paper's key to list only its claims, or None for every paper's.

        Returns:
            A new list of the claims.

        Raises:
            ValueError: no paper is registered as ``paper`` (naming the known papers).
        """
        if paper is None:
            return [c for p in self._papers.values() for c in p.claims()]
        return self.paper(paper).claims()

    def paper(self, key: str) -> Paper:
        """The paper registered as ``key``.

        Arguments:
            key: a paper's key, e.g. ``"nam2025"``.

        Returns:
            The :class:`Paper`.

        Raises:
            ValueError: no paper is registered as ``key`` (naming the known papers).
        """
        if key not in self._papers:
            known = ", ".join(self._papers) or "none"
            raise ValueError(f"unknown paper {key!r}; known papers: {known}")
        return self._papers[key]

    def papers(self) -> list[str]:
        """Paper keys in registration order.

        Returns:
            A new list of the keys.
        """
        return list(self._papers)

    def __len__(self) -> int:
        return sum(len(p.claims()) for p in self._papers.values())
