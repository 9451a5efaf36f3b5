// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/plots/figure_metadata.h"

#include <QFile>
#include <QFileInfo>
#include <QImageReader>
#include <QRegularExpression>
#include <QStringDecoder>

namespace elk::widgets {

QString figureMetadataText(const QString& specHash, const QString& kind)
{
    QString text;
    if (!specHash.isEmpty())
        text = QLatin1String(kRunKeyTag) + specHash;
    if (!kind.isEmpty())
        text += (text.isEmpty() ? QString() : QStringLiteral(" ")) + QLatin1String(kFigureKindTag) + kind;
    return text;
}

namespace {

    FigureMetadata parse(const QString& text)
    {
        FigureMetadata out;
        static const QRegularExpression run(QStringLiteral("elk-run-spec-sha256:([0-9a-f]{64})"));
        static const QRegularExpression kind(QStringLiteral("elk-figure:([a-z0-9-]+)"));
        if (const QRegularExpressionMatch m = run.match(text); m.hasMatch())
            out.specHash = m.captured(1);
        if (const QRegularExpressionMatch m = kind.match(text); m.hasMatch())
            out.kind = m.captured(1);
        return out;
    }

} // namespace

FigureMetadata readFigureMetadata(const QString& path)
{
    FigureMetadata out;
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("png")) {
        QImageReader reader(path, "PNG");
        if (!reader.canRead()) {
            out.error = QStringLiteral("%1: not a readable PNG image").arg(path);
            return out;
        }
        out = parse(reader.text(QStringLiteral("elk")));
    } else if (suffix == QLatin1String("pdf") || suffix == QLatin1String("svg")) {
        QFile file(path);
        if (!file.open(QIODevice::ReadOnly)) {
            out.error = QStringLiteral("%1: %2").arg(path, file.errorString());
            return out;
        }
        const QByteArray bytes = file.read(64 << 20);
        // SVG: plain text in <desc>. PDF: Qt writes the document title as a UTF-16BE string, so the
        // bytes are searched as both.
        out = parse(QString::fromLatin1(bytes));
        if (!out.ok() && suffix == QLatin1String("pdf")) {
            QByteArray even;
            for (qsizetype i = 0; i + 1 < bytes.size(); i += 2)
                even.append(bytes[i] == 0 ? bytes[i + 1] : ' ');
            out = parse(QString::fromLatin1(even));
            if (!out.ok()) {
                QByteArray odd;
                for (qsizetype i = 1; i + 1 < bytes.size(); i += 2)
                    odd.append(bytes[i] == 0 ? bytes[i + 1] : ' ');
                out = parse(QString::fromLatin1(odd));
            }
        }
    } else {
        out.error = QStringLiteral("%1: not a figure (expected .pdf, .svg or .png)").arg(path);
        return out;
    }
    if (!out.ok() && out.error.isEmpty())
        out.error = QStringLiteral("%1 carries no Elk Studio run key (exported by an older version, or not by "
                                   "Elk Studio)")
                        .arg(path);
    return out;
}

} // namespace elk::widgets
