"""`ulm annotate --plot`: the labels of the biggest mistakes never cover each other (nor
the legend), also when the mistakes lie close together; measured on the figure drawn."""
import pytest

import mcts.play.annotate
from mcts.play.annotate import Annotation, AnnotationReport
from ulm import ACTION_NAMES

pytest.importorskip("matplotlib")


def _note(index, played, best_win, played_win, win_before=0.5):
    return Annotation(index=index, round=1 + index // 12, played=played, best="money",
                      win_before=win_before, best_win=best_win, played_win=played_win,
                      played_visits=500, best_visits=500, legal=5,
                      played_action=ACTION_NAMES.index("end turn"),
                      best_action=ACTION_NAMES.index("money"))


def _label_boxes(report, monkeypatch, tmp_path, mark):
    figures = []

    def keep(fig, path):                      # the figure as it would be saved
        fig.canvas.draw()
        figures.append(fig)

    monkeypatch.setattr(mcts.play.annotate, "_save_figure", keep)
    monkeypatch.setattr("matplotlib.pyplot.close", lambda fig=None: None)
    report.plot(tmp_path / "plot.png", mark=mark)
    fig = figures[0]
    ax = fig.axes[0]
    renderer = fig.canvas.get_renderer()
    labels = [t for t in ax.texts if "(loss " in t.get_text()]
    from matplotlib.text import Text
    boxes = [Text.get_window_extent(t, renderer) for t in labels]
    legend = ax.get_legend().get_window_extent(renderer)
    return labels, boxes, legend, ax.get_window_extent(renderer)


@pytest.mark.parametrize("spread", [1, 2, 4])
def test_labels_of_nearby_mistakes_do_not_overlap(spread, monkeypatch, tmp_path):
    notes = [_note(k, "end turn", 0.5, 0.5) for k in range(40)]
    # five mistakes side by side, with long names and nearly the same win chances
    for j, k in enumerate(range(20, 20 + 5 * spread, spread)):
        notes[k] = _note(k, "lay Commercial Goods III in front (end-game points)",
                         0.62 + 0.01 * j, 0.30 + 0.01 * (j % 2))
    notes[2] = _note(2, "seal in Reichenauer Hof with City Wall", 0.5, 0.08, 0.3)  # by the legend
    report = AnnotationReport(seat=0, players=2, iterations=100, time=None, seed=0, notes=notes)
    labels, boxes, legend, area = _label_boxes(report, monkeypatch, tmp_path, mark=6)
    assert len(labels) == 6
    for i, a in enumerate(boxes):
        assert not a.overlaps(legend), labels[i].get_text()
        assert area.x0 - 1 <= a.x0 and a.x1 <= area.x1 + 1, labels[i].get_text()
        for j in range(i):
            assert not a.overlaps(boxes[j]), (labels[i].get_text(), labels[j].get_text())
