// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include <condition_variable>
#include <cstdlib>
#include <fstream>
#include <mutex>
#include <string>
#include <thread>

#include <QTemporaryDir>
#include <QTest>

#include "engine/core/sha256.h"

class TestSha256 : public QObject {
    Q_OBJECT

private slots:
    // Regression (LeakSanitizer in tst_main_window): a thread that hashed and is still alive when
    // the process exits, joined only by an atexit handler registered before OpenSSL's own (as Qt
    // joins its idle pool threads). With OpenSSL's atexit cleanup that thread's state leaked (904
    // bytes); a sanitizer build fails here. The first slot: its worker must be OpenSSL's first user.
    void workerAliveAtExitLeaksNothing()
    {
        struct Worker {
            std::mutex mutex;
            std::condition_variable changed;
            bool hashed = false;
            bool quit = false;
            std::string hash;
            std::thread thread;
        };
        static Worker* worker = new Worker; // lives until the process ends, joined at exit
        std::atexit([] {
            {
                std::lock_guard<std::mutex> lock(worker->mutex);
                worker->quit = true;
            }
            worker->changed.notify_all();
            worker->thread.join();
        });
        worker->thread = std::thread([] {
            const std::string hash = elk::sha256Hex("abc");
            std::unique_lock<std::mutex> lock(worker->mutex);
            worker->hash = hash;
            worker->hashed = true;
            worker->changed.notify_all();
            worker->changed.wait(lock, [] { return worker->quit; });
        });
        std::unique_lock<std::mutex> lock(worker->mutex);
        worker->changed.wait(lock, [] { return worker->hashed; });
        QCOMPARE(worker->hash, std::string("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"));
    }

    void fipsVectors_data()
    {
        QTest::addColumn<QByteArray>("message");
        QTest::addColumn<QByteArray>("expected");
        QTest::addRow("empty") << QByteArray()
                               << QByteArray("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
        QTest::addRow("abc") << QByteArray("abc")
                             << QByteArray("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
        QTest::addRow("448 bits") << QByteArray("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
                                  << QByteArray("248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
        QTest::addRow("896 bits") << QByteArray(
            "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrs"
            "mnopqrstnopqrstu") << QByteArray("cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1");
        QTest::addRow("a million 'a'") << QByteArray(
            1000000, 'a') << QByteArray("cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
    }

    void fipsVectors()
    {
        QFETCH(QByteArray, message);
        QFETCH(QByteArray, expected);
        const std::string hex = elk::sha256Hex(std::string_view(message.constData(), std::size_t(message.size())));
        QCOMPARE(QByteArray::fromStdString(hex), expected);
        QVERIFY(elk::isSha256Hex(hex));
    }

    void incrementalEqualsOneShot()
    {
        elk::Sha256 hash;
        for (int i = 0; i < 1000; ++i)
            hash.update(std::string(1000, 'a')); // chunks that do not align with the 64-byte block
        QCOMPARE(QByteArray::fromStdString(hash.finalHex()),
            QByteArray("cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"));
    }

    void hashesFileContents()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::string path = dir.filePath(QStringLiteral("model.onnx")).toStdString();
        {
            std::ofstream file(path, std::ios::binary);
            file << std::string(200000, 'a') << "abc"; // spans several read chunks
        }
        std::string error;
        const auto hex = elk::sha256HexOfFile(path, error);
        QVERIFY2(hex.has_value(), error.c_str());
        QCOMPARE(*hex, elk::sha256Hex(std::string(200000, 'a') + "abc"));
    }

    void missingFileNamesThePath()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath(QStringLiteral("absent.onnx")).toStdString();
        std::string error;
        QVERIFY(!elk::sha256HexOfFile(path, error).has_value());
        QVERIFY2(error.find(path) != std::string::npos, error.c_str());
    }

    void directoryIsNotAFile()
    {
        QTemporaryDir dir;
        std::string error;
        QVERIFY(!elk::sha256HexOfFile(dir.path().toStdString(), error).has_value());
        QVERIFY2(error.find("directory") != std::string::npos, error.c_str());
    }

    void recognisesHexDigests_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("expected");
        const QString good = QStringLiteral("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
        QTest::addRow("64 lower-case hex digits") << good << true;
        QTest::addRow("upper case") << good.toUpper() << false;
        QTest::addRow("63 digits") << good.left(63) << false;
        QTest::addRow("65 digits") << good + QLatin1Char('0') << false;
        QTest::addRow("non-hex letter") << QString(good).replace(0, 1, QLatin1Char('g')) << false;
        QTest::addRow("empty") << QString() << false;
    }

    void recognisesHexDigests()
    {
        QFETCH(QString, text);
        QFETCH(bool, expected);
        QCOMPARE(elk::isSha256Hex(text.toStdString()), expected);
    }
};

QTEST_GUILESS_MAIN(TestSha256)
#include "tst_sha256.moc"
