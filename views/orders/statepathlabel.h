#pragma once

// The order's path through the state machine as one line of text that wraps between its
// parts: "Path: pending payment → paying → … → paid", a rollback's state on amber with "↺",
// the current state in bold, refused attempts on their own colour after it (OrderPage builds
// the parts; which colours mean what is in models/common/labels.h).
// It was a rich-text QLabel: a QTextDocument laid out twice for every width the page's layout
// asked about, ~0.8 ms of every order page whose path differed from the last one's (the
// benchmark's other-path row). Here each part is laid out once (QStaticText, per text and
// weight: state names are a small set) and the lines are counted from the kept widths.
// Thread contract: GUI thread only.

#include <QColor>
#include <QHash>
#include <QList>
#include <QStaticText>
#include <QWidget>

namespace OncePay {

class StatePathLabel : public QWidget {
    Q_OBJECT
public:
    struct Part {
        QString text;
        bool bold = false;
        QColor background; // none when invalid
        // A line may break before this part (not before an arrow between two states).
        bool breakBefore = true;
        bool operator==(const Part &) const = default;
    };

    explicit StatePathLabel(QWidget *parent = nullptr);

    void setParts(const QList<Part> &parts);
    const QList<Part> &parts() const { return m_parts; }
    // The parts' text as one line (also the accessible name).
    QString text() const;
    // Where each part is drawn at the present width, in the order of parts().
    QList<QRect> partRects() const { return layoutAt(width()); }
    // Texts laid out so far (tests: a part seen before is not laid out again).
    int laidOut() const { return m_laidOut; }

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;
    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int width) const override;

protected:
    void paintEvent(QPaintEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    const QStaticText &laidOutText(const Part &part) const;
    int widthOf(const Part &part) const;
    QList<QRect> layoutAt(int width) const;

    QList<Part> m_parts;
    mutable QHash<std::pair<QString, bool>, QStaticText> m_texts;
    mutable int m_laidOut = 0;
};

} // namespace OncePay
