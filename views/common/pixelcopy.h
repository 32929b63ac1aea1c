#pragma once

// Whether a picture drawn once into a pixmap, at the painter's device-pixel ratio and at the
// place's own coordinates, and then copied lands pixel for pixel where drawing it again would:
// a whole number of device pixels per pixel (1.5 would round edges either way), no scaling
// but the screen's (which QPainter puts in its transform), no rotation, whole-pixel shifts (a
// widget rendered into another painter may sit at a fraction), and drawn whole — not faded
// (a dragged header section's copy is drawn at 0.75, stroke by stroke) nor composed otherwise.
// Used by the widgets that keep what they painted (MeasuredHeader, StateDiagram), with
// opaqueBackground() below.
// Thread contract: the painter's thread.

#include <QPaintDevice>
#include <QPainter>
#include <QTransform>
#include <QWidget>

#include <cmath>
#include <optional>

namespace OncePay {

inline bool copiesPixelForPixel(const QPainter *painter)
{
    const qreal dpr = painter->device()->devicePixelRatio();
    const QTransform t = painter->deviceTransform(); // with a widget's place in its window
    if (dpr != std::round(dpr) || t.type() > QTransform::TxScale || t.m11() != dpr ||
        t.m22() != dpr || t.dx() != std::round(t.dx()) || t.dy() != std::round(t.dy()))
        return false;
    return painter->opacity() == 1.0 &&
           painter->compositionMode() == QPainter::CompositionMode_SourceOver;
}

// The opaque colour `widget` fills itself with, which a kept picture is drawn on (the raster
// engine draws text on a transparent pixmap with other glyph images: other pixels); nothing when
// it does not fill itself with one.
inline std::optional<QColor> opaqueBackground(const QWidget *widget)
{
    const QBrush under = widget->palette().brush(widget->backgroundRole());
    if (!widget->autoFillBackground() || under.style() != Qt::SolidPattern || !under.isOpaque())
        return std::nullopt;
    return under.color();
}

} // namespace OncePay
