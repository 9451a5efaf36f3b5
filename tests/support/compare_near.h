// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// ELK_COMPARE_NEAR(actual, expected, tolerance): passes when |actual − expected| < tolerance, and on
// failure prints both expressions, both values, the tolerance and the difference (a bare
// QVERIFY(qAbs(a − b) < eps) prints none of them). Use it where QVERIFY may be used: it returns from
// the test function on failure.

#include <QString>
#include <QTest>

#include <cmath>

#define ELK_COMPARE_NEAR(actual, expected, tolerance)                                                                  \
    do {                                                                                                               \
        const double elkNearActual = double(actual);                                                                   \
        const double elkNearExpected = double(expected);                                                               \
        const double elkNearTolerance = double(tolerance);                                                             \
        if (!(std::abs(elkNearActual - elkNearExpected) < elkNearTolerance))                                           \
            QFAIL(qPrintable(QStringLiteral("%1 is %2, expected %3 = %4 within %5 (off by %6)")                        \
                                 .arg(QStringLiteral(#actual))                                                         \
                                 .arg(elkNearActual, 0, 'g', 17)                                                       \
                                 .arg(QStringLiteral(#expected))                                                       \
                                 .arg(elkNearExpected, 0, 'g', 17)                                                     \
                                 .arg(elkNearTolerance, 0, 'g', 3)                                                     \
                                 .arg(elkNearActual - elkNearExpected, 0, 'g', 3)));                                   \
    } while (false)
