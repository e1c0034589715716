"""Pictures of an evaluation: the figure and the self-contained HTML report.

Everything drawn comes from the database: ``madnb.evaluate(..., curves => true)``
returns the confusion matrix, the ROC and precision-recall points and the
calibration bins (computed there, from one sort of each class's scores, so that no
row's probabilities are fetched), and ``madnb.cross_validate`` the per-fold
metrics.  This module only draws them:

* :func:`figure`: a matplotlib figure -- the confusion matrix in counts and
  normalised by the true class, the ROC curves (one per class against the rest for
  more than two classes, with each AUC and the macro AUC), the precision-recall
  curves (with average precision), the calibration curve, and, given the folds of
  a cross-validation, the spread of each score over the folds;
* :func:`html`: the same as one self-contained HTML page (the figure inline as a
  PNG, the metrics as tables; no script, no external resource), which
  ``madnb evaluate --report report.html`` writes.

matplotlib is an optional dependency (the ``bench`` extra:
``pip install 'madnb[bench]'``); a missing one is a :class:`ReportError` that
says so.
"""

from __future__ import annotations

import base64
import html as _html
import io
from collections.abc import Mapping, Sequence
from typing import Any

PLOT_EXTRA = "bench"
"""The extra of pyproject.toml that brings matplotlib."""
SCORES = ("accuracy", "balanced_accuracy", "log_loss", "roc_auc")
"""The scores whose spread over the folds of a cross-validation is drawn (those present)."""


class ReportError(RuntimeError):
    """A report cannot be drawn: matplotlib is missing, or the metrics lack what it draws."""


def _figure_class() -> Any:
    """matplotlib's Figure, drawn without pyplot: the caller's backend and pyplot state are left alone."""
    try:
        from matplotlib.figure import Figure
    except ImportError as e:  # pragma: no cover - depends on the environment
        raise ReportError(
            f"drawing an evaluation needs matplotlib: pip install 'madnb[{PLOT_EXTRA}]'"
        ) from e
    return Figure


def _require_curves(metrics: Mapping[str, Any]) -> Mapping[str, Any]:
    curves = metrics.get("curves")
    if not isinstance(curves, Mapping):
        raise ReportError("these metrics have no curves: evaluate with curves => true (madnb.evaluate(..., curves => true))")
    return curves


def folds_of(cross_validation: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The per-fold metrics of a ``madnb.cross_validate`` result keyed by fold (``{"1": ..., "mean": ...}``)."""
    return [v for k, v in sorted(cross_validation.items(), key=lambda kv: int(kv[0]) if kv[0].isdigit() else 0)
            if k.isdigit()]


def figure(metrics: Mapping[str, Any], folds: Sequence[Mapping[str, Any]] | None = None, title: str | None = None) -> Any:
    """The figure of an evaluation (``madnb.evaluate(..., curves => true)``'s jsonb as a dict).

    Parameters
    ----------
    metrics : mapping
        The metrics, with their ``curves``.
    folds : sequence of mappings, optional
        The per-fold metrics of a cross-validation (:func:`folds_of`): adds a panel
        of each score's spread over the folds.
    title : str, optional
        The figure's title.

    Returns
    -------
    matplotlib.figure.Figure
        Made without pyplot (the session's backend is left as it is): in a notebook, show it by evaluating it, or
        with ``IPython.display.display(fig)``; ``fig.savefig(path)`` writes it.
    """
    curves = _require_curves(metrics)
    classes = [str(c) for c in metrics["classes"]]
    panels = 6 if folds else 5
    fig = _figure_class()(figsize=(16, 10))
    axes = fig.subplots(2, 3)
    ax = list(axes.flat)
    cm = metrics["confusion_matrix"]
    _matrix(ax[0], cm, classes, "confusion matrix (rows: true class)", normalise=False)
    _matrix(ax[1], cm, classes, "normalised by the true class", normalise=True)
    for c in curves["roc"]:
        label = c["class"] if c.get("auc") is None else f"{c['class']} (AUC {c['auc']:.3f})"
        ax[2].plot(c["fpr"], c["tpr"], label=label)
    ax[2].plot([0, 1], [0, 1], linestyle=":", color="grey")
    roc_title = "ROC" if len(classes) == 2 else "ROC, each class against the rest"
    if metrics.get("roc_auc") is not None:
        roc_title += f" (AUC {metrics['roc_auc']:.3f})" if len(classes) == 2 else f" (macro AUC {metrics['roc_auc']:.3f})"
    _axes(ax[2], roc_title, "false positive rate", "true positive rate")
    for c in curves["precision_recall"]:
        ap = c.get("average_precision")
        ax[3].plot(c["recall"], c["precision"], label=c["class"] if ap is None else f"{c['class']} (AP {ap:.3f})")
    _axes(ax[3], "precision-recall", "recall", "precision")
    for c in curves["calibration"]:
        ax[4].plot(c["prob_pred"], c["prob_true"], marker="o", label=c["class"])
    ax[4].plot([0, 1], [0, 1], linestyle=":", color="grey")
    _axes(ax[4], "calibration (10 bins)", "mean predicted probability", "fraction of the class")
    if folds:
        names = [s for s in SCORES if all(f.get(s) is not None for f in folds)]
        ax[5].boxplot([[float(f[s]) for f in folds] for s in names])
        ax[5].set_xticks(range(1, len(names) + 1), names)
        for i, s in enumerate(names, start=1):
            ax[5].scatter([i] * len(folds), [float(f[s]) for f in folds], s=12, zorder=3)
        ax[5].set_title(f"cross-validation: {len(folds)} folds")
        ax[5].grid(True, alpha=0.3)
    for a in ax[panels:]:
        a.axis("off")
    if title:
        fig.suptitle(title)
    fig.tight_layout()
    return fig


def _axes(ax: Any, title: str, x: str, y: str) -> None:
    ax.set_title(title)
    ax.set_xlabel(x)
    ax.set_ylabel(y)
    ax.set_xlim(-0.01, 1.01)
    ax.set_ylim(-0.01, 1.01)
    ax.grid(True, alpha=0.3)
    ax.legend(loc="best", fontsize="small")


def _matrix(ax: Any, cm: Sequence[Sequence[int]], classes: list[str], title: str, normalise: bool) -> None:
    values = [[(v / sum(row) if sum(row) else 0.0) if normalise else float(v) for v in row] for row in cm]
    ax.imshow(values, cmap="Blues", vmin=0.0, vmax=1.0 if normalise else None)
    top = max((max(r) for r in values), default=0.0)
    for i, row in enumerate(values):
        for j, v in enumerate(row):
            text = f"{v:.2f}" if normalise else f"{int(v)}"
            ax.text(j, i, text, ha="center", va="center", color="white" if v > top / 2 else "black")
    ax.set_xticks(range(len(classes)), classes, rotation=45, ha="right")
    ax.set_yticks(range(len(classes)), classes)
    ax.set_xlabel("predicted")
    ax.set_ylabel("true")
    ax.set_title(title)


def png(metrics: Mapping[str, Any], folds: Sequence[Mapping[str, Any]] | None = None, title: str | None = None) -> bytes:
    """:func:`figure` as PNG bytes."""
    out = io.BytesIO()
    figure(metrics, folds, title).savefig(out, format="png", dpi=90)  # a pyplot-free Figure: nothing to close
    return out.getvalue()


def html(metrics: Mapping[str, Any], folds: Sequence[Mapping[str, Any]] | None = None, title: str = "madnb evaluation") -> str:
    """The self-contained HTML report of an evaluation: the figure inline (a PNG data URI) and the metrics as tables.

    Parameters
    ----------
    metrics : mapping
        ``madnb.evaluate(..., curves => true)``'s result.
    folds : sequence of mappings, optional
        The per-fold metrics of a cross-validation (:func:`folds_of`).
    title : str
        The page's title and heading.

    Returns
    -------
    str
        One HTML document: no script, no external resource.
    """
    picture = base64.b64encode(png(metrics, folds, title)).decode("ascii")
    e = _html.escape
    classes = [str(c) for c in metrics["classes"]]
    summary = [("rows", metrics["rows"]), ("accuracy", metrics["accuracy"]), ("balanced accuracy", metrics["balanced_accuracy"]),
               ("log-loss", metrics["log_loss"]), ("ROC AUC", metrics.get("roc_auc")),
               ("macro F1", metrics["macro_avg"]["f1"]), ("labels not among the classes", metrics["unknown_label_rows"])]
    rows = "".join(f"<tr><th>{e(k)}</th><td>{e(_fmt(v))}</td></tr>" for k, v in summary)
    per_class = "".join(
        f"<tr><th>{e(c)}</th><td>{_fmt(metrics['precision'][i])}</td><td>{_fmt(metrics['recall'][i])}</td>"
        f"<td>{_fmt(metrics['f1'][i])}</td><td>{metrics['support'][i]}</td></tr>"
        for i, c in enumerate(classes)
    )
    fold_rows = ""
    if folds:
        fold_rows = "<h2>Cross-validation</h2><table><tr><th>fold</th>" + "".join(f"<th>{e(s)}</th>" for s in SCORES) + "</tr>" + "".join(
            f"<tr><th>{i}</th>" + "".join(f"<td>{e(_fmt(f.get(s)))}</td>" for s in SCORES) + "</tr>" for i, f in enumerate(folds, start=1)
        ) + "</table>"
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{e(title)}</title>
<style>body{{font-family:sans-serif;margin:2em;}} table{{border-collapse:collapse;margin-bottom:1.5em;}}
th,td{{border:1px solid #ccc;padding:0.3em 0.7em;text-align:right;}} th{{background:#f4f4f4;}} img{{max-width:100%;}}</style>
</head><body>
<h1>{e(title)}</h1>
<table>{rows}</table>
<h2>Per class</h2>
<table><tr><th>class</th><th>precision</th><th>recall</th><th>F1</th><th>support</th></tr>{per_class}</table>
{fold_rows}
<h2>Curves</h2>
<img id="figure" alt="confusion matrix, ROC, precision-recall and calibration curves" src="data:image/png;base64,{picture}">
<p>Computed in the database by madnb.evaluate(..., curves =&gt; true); drawn by madnb.report.</p>
</body></html>
"""


def _fmt(v: Any) -> str:
    if v is None:
        return "—"
    if isinstance(v, float):
        return f"{v:.4f}"
    return str(v)


__all__ = ["PLOT_EXTRA", "SCORES", "ReportError", "figure", "folds_of", "html", "png"]
