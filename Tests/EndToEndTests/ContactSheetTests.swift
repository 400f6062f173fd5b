import DarkroomCodecs
import DarkroomTestSupport
import Foundation
import XCTest

/// `darkroom report --html`: the contact sheet of a real daemon's reports, read as a file and
/// opened in a real browser (Debian's chromium and chromium-driver, driven by Selenium).
final class ContactSheetTests: XCTestCase {
    /// Two watches with their own reports folders; photos draws sepia's intensity at random.
    func config(_ s: Scratch) -> String {
        """
        watches:
          - name: photos
            path: \(s.path("inbox/photos"))
            settle_ms: 50
            done_dir: \(s.path("done/photos"))
            failed_dir: \(s.path("failed/photos"))
            reports_dir: \(s.path("reports/photos"))
            outputs:
              - path: \(s.path("out/photos/{stem}.jpg"))
                chain:
                  - resize: { width: 120 }
                  - sepia: { intensity: random }
              - path: \(s.path("out/photos/{stem}-small.png"))
                chain:
                  - resize: { width: 40 }
          - name: scans
            path: \(s.path("inbox/scans"))
            settle_ms: 50
            done_dir: \(s.path("done/scans"))
            failed_dir: \(s.path("failed/scans"))
            reports_dir: \(s.path("reports/scans"))
            outputs:
              - path: \(s.path("out/scans/{stem}.png"))
                chain:
                  - invert: {}
        """
    }

    /// Runs the daemon over good files and two bad ones; returns the inputs by name.
    func processed(_ s: Scratch) throws -> [String: String] {
        s.writeConfig(config(s))
        let daemon = try start(s)
        let jpeg = try picture(width: 300, height: 200, format: .jpeg)
        let png = try picture(width: 90, height: 120, format: .png)
        let inputs = ["photos/a.jpg": jpeg, "photos/b.png": png, "photos/c.jpg": jpeg, "scans/d.png": png,
                      "photos/notes.jpg": Array("a shopping list, not a picture\n".utf8),
                      "scans/half.png": Array(png.prefix(png.count / 2))]
        for (name, bytes) in inputs { s.writeAndRename("inbox/" + name, bytes) }
        XCTAssertTrue(eventually { s.files(in: "reports/photos").count == 4 && s.files(in: "reports/scans").count == 2 },
                      "reports: \(s.files(in: "reports/photos")) \(s.files(in: "reports/scans")); log:\n\(tail(daemon))")
        stop(daemon)
        return Dictionary(uniqueKeysWithValues: inputs.keys.map { (String($0.split(separator: "/")[1]), s.path("inbox/" + $0)) })
    }

    func testSheetShowsEveryInputOnceFailuresFirstWithThumbnailsAndWorkingFilters() throws {
        let s = Scratch()
        let inputs = try processed(s)
        // Gone since: an input (deleted from done) and an output; the sheet says so and goes on.
        XCTAssertNoThrow(try FileManager.default.removeItem(atPath: s.path("done/photos/c.jpg")))
        XCTAssertNoThrow(try FileManager.default.removeItem(atPath: s.path("out/photos/b-small.png")))

        let sheet = s.path("sheet/contact.html")
        let run = try darkroom(["report", "--html", sheet, "--no-thumbnail-cache", "--config", s.path("config.yaml"),
                                s.path("reports/photos"), s.path("reports/scans")])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stdout.contains("6 reports (2 failed)"), run.stdout)
        let html = try String(contentsOfFile: sheet, encoding: .utf8)

        // Self-contained: no address anywhere, nothing to fetch, and a policy that forbids it.
        for external in ["http:", "https:", "<link", "<iframe", "@import", "url(", " src=", "//cdn", "file:"] {
            XCTAssertFalse(html.contains(external), "the sheet refers to something outside it: \(external)")
        }
        XCTAssertTrue(html.contains("default-src 'none'"))
        XCTAssertEqual(s.files(in: "sheet"), ["contact.html"], "no temporary file left beside it")

        // The thumbnails are pictures darkroom made: WebP, within the 160-pixel box.
        let blocks = try NSRegularExpression(pattern: #"data-mime="image/webp" data-size="(\d+)x(\d+)">([A-Za-z0-9+/=]+)<"#)
            .matches(in: html, range: NSRange(html.startIndex..., in: html))
        XCTAssertEqual(blocks.count, 3 + 2 + 1 + 2 + 1,
                       "the inputs a.jpg, b.png, d.png; the outputs of a.jpg (2), b.png (1: the other was deleted), c.jpg (2), d.png (1)")
        for block in blocks {
            let base64 = String(html[Range(block.range(at: 3), in: html)!])
            let info = try ImageCodec.readInfo(Array(try XCTUnwrap(Data(base64Encoded: base64))))
            XCTAssertEqual(info.format, .webp)
            XCTAssertEqual("\(info.width)x\(info.height)", String(html[Range(block.range(at: 1), in: html)!]) + "x"
                           + String(html[Range(block.range(at: 2), in: html)!]))
            XCTAssertLessThanOrEqual(max(info.width, info.height), 160)
        }

        let page = try openInBrowser(sheet, screenshot: s.path("sheet.png"))
        let cards = try XCTUnwrap(page["cards"] as? [[String]])
        XCTAssertEqual(cards.map { $0[0] }.sorted(), inputs.values.sorted(), "every input appears exactly once")
        XCTAssertEqual(cards.prefix(2).map { $0[1] }, ["failed", "failed"], "failures first: \(cards)")
        XCTAssertEqual(Set(cards.prefix(2).map { $0[0] }), [inputs["notes.jpg"]!, inputs["half.png"]!])
        XCTAssertEqual(Set(cards.dropFirst(2).map { $0[1] }), ["ok"])
        let errors = try XCTUnwrap(page["errors"] as? [String])
        XCTAssertEqual(errors.count, 2)
        XCTAssertTrue(errors.contains { $0.hasPrefix("not_an_image: ") }, "\(errors)")
        XCTAssertTrue(errors.contains { $0.hasPrefix("truncated: ") || $0.hasPrefix("corrupt: ") }, "\(errors)")

        // Every box holds a picture the browser decoded, or says why there is none.
        let images = try XCTUnwrap(page["images"] as? [[String: Any]])
        XCTAssertEqual(images.count, blocks.count, "\(images)")
        XCTAssertTrue(images.allSatisfy { ($0["width"] as? Int ?? 0) > 0 }, "\(images)")
        let placeholders = try XCTUnwrap(page["placeholders"] as? [String])
        XCTAssertTrue(placeholders.contains { $0.contains("input no longer there") && $0.contains(s.path("done/photos/c.jpg")) }, "\(placeholders)")
        XCTAssertTrue(placeholders.contains { $0 == "output no longer there: \(s.path("out/photos/b-small.png"))" }, "\(placeholders)")
        XCTAssertTrue(placeholders.contains { $0.contains("notes.jpg: not_an_image") }, "the failed input's own error: \(placeholders)")
        XCTAssertEqual(placeholders.count, 4, "the 2 failed inputs (they have no outputs), c.jpg and b-small.png: \(placeholders)")

        // The drawn value is marked in each photos output's chain (three reports with sepia).
        let drawn = try XCTUnwrap(page["drawn"] as? [String])
        XCTAssertEqual(drawn.count, 3, "\(drawn)")
        XCTAssertTrue(drawn.allSatisfy { $0.hasPrefix("intensity=") }, "\(drawn)")

        // Filters: failed alone, then ok alone, then one watch.
        XCTAssertEqual((page["failedOnly"] as? [String])?.sorted(), [inputs["half.png"]!, inputs["notes.jpg"]!].sorted())
        XCTAssertEqual((page["okOnly"] as? [String])?.sorted(), ["a.jpg", "b.png", "c.jpg", "d.png"].map { inputs[$0]! }.sorted())
        XCTAssertEqual((page["scansOnly"] as? [String])?.sorted(), [inputs["d.png"]!, inputs["half.png"]!].sorted())
        XCTAssertEqual(page["resources"] as? Int, 0, "the browser fetched nothing")
    }

    func testSinceLeavesOutOlderReportsAndMistakesAreExplained() throws {
        let s = Scratch()
        s.writeInPlace("reports/new.jpg.json", Array(ReportFixture.json(input: "/in/new.jpg", status: "ok", seconds: 0.1).utf8))
        s.writeInPlace("reports/old.jpg.json", Array(ReportFixture.json(
            input: "/in/old.jpg", status: "ok", started: "2020-01-01T00:00:00.000Z", seconds: 0.1).utf8))
        let recent = try darkroom(["report", s.path("reports"), "--since", "2021-01-01", "--html", s.path("recent.html"), "--no-thumbnail-cache"])
        XCTAssertEqual(recent.status, 0, recent.stderr)
        let html = try String(contentsOfFile: s.path("recent.html"), encoding: .utf8)
        XCTAssertTrue(html.contains("\"input\":\"/in/new.jpg\""))
        XCTAssertFalse(html.contains("/in/old.jpg"), "--since leaves the 2020 report out")
        XCTAssertTrue(html.contains("input no longer there (looked at /done/new.jpg, /in/new.jpg)"),
                      "without a config the default layout is looked at, and said")

        let missing = try darkroom(["report", s.path("reports"), s.path("nowhere"), "--html", s.path("x.html")])
        XCTAssertEqual(missing.status, 1)
        XCTAssertTrue(missing.stderr.contains("cannot read the folder \(s.path("nowhere")) (No such file or directory)"), missing.stderr)
        XCTAssertFalse(s.exists("x.html"))

        s.makeFolder("taken.html")
        let folder = try darkroom(["report", s.path("reports"), "--html", s.path("taken.html")])
        XCTAssertEqual(folder.status, 1)
        XCTAssertTrue(folder.stderr.contains("is a folder"), folder.stderr)

        let unwritable = try darkroom(["report", s.path("reports"), "--html", s.path("reports/new.jpg.json/sheet.html")])
        XCTAssertEqual(unwritable.status, 1)
        XCTAssertTrue(unwritable.stderr.contains("--html: cannot create folder \(s.path("reports/new.jpg.json")): Not a directory"),
                      unwritable.stderr)

        let both = try darkroom(["report", s.path("reports"), "--html", s.path("y.html"), "--json"])
        XCTAssertNotEqual(both.status, 0)
        XCTAssertTrue(both.stderr.contains("--html writes a page"), both.stderr)
        XCTAssertEqual(s.files(in: ".").filter { $0.hasSuffix(".tmp") }, [], "no temporary file left")
    }

    /// A sheet of 5,000 reports (tiny PNGs, so it is cheap to make) opens with its first cards
    /// and their pictures on screen, holds a page of cards and only the pictures near the screen,
    /// adds more as the reader scrolls, and filters by status and by watch over all 5,000.
    func testFiveThousandReportsOpenAPageAtATimeWithPicturesMadeOnlyNearTheScreen() throws {
        let s = Scratch()
        let pictures = try (0..<4).map { try picture(width: 8 + $0, height: 6, format: .png) }
        var failed = Set<String>(), scans = 0, outputs = 0
        for i in 0..<5000 {
            let (watch, fails) = (i % 5 == 1 ? "scans" : "photos", i % 25 == 0)
            let input = s.path("in/\(watch)/f\(i).png")
            s.writeInPlace("in/\(watch)/f\(i).png", pictures[i % 4])
            if watch == "scans" { scans += 1 }
            if fails { failed.insert(input) }
            var output = ""
            if !fails && i % 10 == 2 {
                outputs += 1
                s.writeInPlace("out/f\(i).png", pictures[(i + 1) % 4])
                output = """
                    {"path": "\(s.path("out/f\(i).png"))", "format": "png", "width": 9, "height": 6, "bytes": 90, "seed": \(i),
                     "chain": [{"filter": "sepia", "parameters": {"intensity": 0.5}, "random": []}], "nodes": [],
                     "peak_pixel_bytes": 0, "shrink_on_load": 1}
                    """
            }
            let finished = ReportFixture.finish("2026-11-20T10:00:00.000Z", Double(i))
            s.writeInPlace("reports/\(watch)/f\(i).png.json", Array("""
                {"schema_version": 1, "watch": "\(watch)", "status": "\(fails ? "failed" : "ok")",
                 "error": \(fails ? "{\"code\": \"corrupt\", \"message\": \"the file \(i) is corrupt\"}" : "null"),
                 "input": {"path": "\(input)", "bytes": 90, "sha256": null, "format": "png", "width": 8, "height": 6,
                           "color_space": "srgb", "orientation": 1, "shrink_on_load": 1},
                 "outputs": [\(output)],
                 "timings": {"queued": "\(finished)", "started": "\(finished)", "finished": "\(finished)", "decode": 0.001, "encode": 0.001, "total": 0.002},
                 "darkroom_version": "0.1.0", "config_sha256": null}
                """.utf8))
        }
        let sheet = s.path("many.html")
        let run = try darkroom(["report", "--html", sheet, "--thumbnail-cache", s.path("cache"), s.path("reports")])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(outputs, 500)
        XCTAssertTrue(run.stdout.contains("5,000 reports (200 failed), 5,500 thumbnails ("), run.stdout)
        let html = try String(contentsOfFile: sheet, encoding: .utf8)
        XCTAssertEqual(html.components(separatedBy: "data-mime=\"image/webp\"").count - 1, 5000 + outputs, "a picture per input and output")

        let page = try openInBrowser(sheet, script: Self.manyScript, screenshot: s.path("many.png"))
        // Failures first, the most recent first: f4975 (a photos input, the fourth picture: 11 px wide).
        XCTAssertEqual(page["first"] as? [String], ["failed", s.path("in/photos/f4975.png")])
        XCTAssertEqual(page["firstVisible"] as? Bool, true, "the first card is on screen")
        XCTAssertEqual(page["firstPicture"] as? Int, 11, "the first card's picture is shown, decoded")
        let opened = try XCTUnwrap(page["openedCards"] as? Int), pictures0 = try XCTUnwrap(page["openedPictures"] as? Int)
        XCTAssertGreaterThan(opened, 0)
        XCTAssertLessThan(opened, 500, "a page of cards, not 5,000")
        XCTAssertLessThan(pictures0, opened * 2, "pictures only for cards near the screen")
        XCTAssertEqual(page["farCardHadPicture"] as? Bool, false, "a card far below the screen has no picture until it comes near")
        XCTAssertGreaterThan(page["farCardPictureWidth"] as? Int ?? 0, 0, "…and has one once scrolled to")
        XCTAssertGreaterThan(page["scrolledCards"] as? Int ?? 0, opened, "scrolling to the end of the page lays out more cards")
        XCTAssertEqual(page["shownText"] as? String, "showing \(opened) of 5000, failures first, then the most recent")
        XCTAssertEqual(Set(page["failedOnly"] as? [String] ?? []), failed, "the status filter shows all 200 failures and only them")
        XCTAssertEqual(page["failedText"] as? String, "showing 200 of 200 (of 5000 in all), failures first, then the most recent")
        XCTAssertEqual(page["scansWatches"] as? [String], ["scans"], "the watch filter shows only scans")
        XCTAssertTrue((page["scansText"] as? String ?? "").hasSuffix(" of \(scans) (of 5000 in all), failures first, then the most recent"),
                      "\(page["scansText"] ?? "")")
    }

    /// Thumbnails are kept by content between runs: a second sheet reads them back, a file
    /// whose content changed gets a new one, a damaged entry is made anew, an unwritable cache
    /// is said and the sheet made all the same, old entries are removed.
    func testThumbnailsAreKeptByContentAndAChangedFileGetsANewOne() throws {
        let s = Scratch()
        s.writeInPlace("in/a.png", try picture(width: 120, height: 80, format: .png))
        s.writeInPlace("in/b.png", try picture(width: 60, height: 90, format: .png))
        for name in ["a", "b"] {
            s.writeInPlace("reports/\(name).png.json", Array(ReportFixture.json(input: s.path("in/\(name).png"), status: "ok", seconds: 0.1).utf8))
        }
        let cache = s.path("xdg/darkroom/thumbnails")
        func sheet(_ extra: [String] = []) throws -> (run: CommandResult, sizes: [String: String]) {
            let result = try ToolProcess.capture(try DaemonProcess.binaryPath(), ["report", "--html", s.path("sheet.html"), s.path("reports")] + extra,
                                                 environment: ["XDG_CACHE_HOME": s.path("xdg")])
            let run = CommandResult(status: result.status, stdout: result.stdout, stderr: result.stderr)
            XCTAssertEqual(run.status, 0, run.stderr)
            // The input each picture shows, by its size (a.png's entry is the first card's, by name within the second).
            let html = try String(contentsOfFile: s.path("sheet.html"), encoding: .utf8)
            let entries = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(String(html.split(separator: "<script type=\"application/json\" id=\"entries\">")[1]
                .prefix { $0 != "<" }).utf8)) as? [[String: Any]])
            var sizes = [String: String]()
            for e in entries {
                let id = e["thumbnail"] as! Int
                let size = html.range(of: #"id="t\#(id)" data-mime="image/webp" data-size="(\d+x\d+)""#, options: .regularExpression)
                    .map { String(html[$0].split(separator: "\"")[5]) }
                sizes[(e["input"] as! String).components(separatedBy: "/").last!] = size ?? "none"
            }
            return (run, sizes)
        }
        func entries() -> [String] {
            (FileManager.default.enumerator(atPath: cache)?.allObjects as? [String] ?? []).filter { $0.hasSuffix(".webp") }.sorted()
        }

        let first = try sheet()
        XCTAssertTrue(first.run.stdout.contains(", 2 thumbnails, "), first.run.stdout)
        XCTAssertEqual(first.sizes, ["a.png": "120x80", "b.png": "60x90"])
        XCTAssertEqual(entries().count, 2, "one entry per picture, under XDG_CACHE_HOME")

        let again = try sheet()
        XCTAssertTrue(again.run.stdout.contains("2 thumbnails (2 from the cache)"), again.run.stdout)
        XCTAssertEqual(again.sizes, first.sizes)

        // a.png replaced by another picture under the same name: its thumbnail is the new one.
        s.writeInPlace("in/a.png", try picture(width: 40, height: 30, format: .png))
        let changed = try sheet()
        XCTAssertTrue(changed.run.stdout.contains("2 thumbnails (1 from the cache)"), changed.run.stdout)
        XCTAssertEqual(changed.sizes, ["a.png": "40x30", "b.png": "60x90"])
        XCTAssertEqual(entries().count, 3)

        // A damaged entry is not shown: the picture is made anew.
        for entry in entries() { XCTAssertNoThrow(try Data("not a picture".utf8).write(to: URL(fileURLWithPath: cache + "/" + entry))) }
        let damaged = try sheet()
        XCTAssertTrue(damaged.run.stdout.contains(", 2 thumbnails, "), damaged.run.stdout)
        XCTAssertEqual(damaged.sizes, changed.sizes)

        // Entries unused for more than 30 days are removed: all three made 31 days old, the two
        // a sheet reads are kept (reading is a use), a.png's old picture goes.
        let stale = Date().addingTimeInterval(-31 * 86_400)
        for entry in entries() {
            XCTAssertNoThrow(try FileManager.default.setAttributes([.modificationDate: stale], ofItemAtPath: cache + "/" + entry))
        }
        let pruned = try sheet()
        XCTAssertTrue(pruned.run.stdout.contains("2 thumbnails (2 from the cache)"), pruned.run.stdout)
        XCTAssertEqual(entries().count, 2, "\(entries())")

        // --no-thumbnail-cache: nothing read, nothing kept.
        try FileManager.default.removeItem(atPath: s.path("xdg"))
        let none = try sheet(["--no-thumbnail-cache"])
        XCTAssertTrue(none.run.stdout.contains(", 2 thumbnails, "), none.run.stdout)
        XCTAssertFalse(FileManager.default.fileExists(atPath: s.path("xdg")))

        // A cache that cannot be written (its folder is a file) is said; the sheet is made all the same.
        let blocked = try sheet(["--thumbnail-cache", s.path("in/b.png")])
        XCTAssertEqual(blocked.sizes, changed.sizes)
        XCTAssertTrue(blocked.run.stderr.contains("warning: thumbnails cannot be kept in \(s.path("in/b.png"))"), blocked.run.stderr)
        XCTAssertEqual(blocked.run.stderr.components(separatedBy: "warning").count, 2, "said once: \(blocked.run.stderr)")

        let both = try darkroom(["report", s.path("reports"), "--html", s.path("x.html"), "--no-thumbnail-cache", "--thumbnail-cache", s.path("c")])
        XCTAssertNotEqual(both.status, 0)
        XCTAssertTrue(both.stderr.contains("--thumbnail-cache and --no-thumbnail-cache cannot be combined"), both.stderr)
    }

    /// Opens the sheet in headless Chromium (Browser/browser.py, shared with the preview
    /// page's tests) and reads what a person would see and do.
    func openInBrowser(_ sheet: String, script: String = browserScript, screenshot: String) throws -> [String: Any] {
        for tool in ["/usr/bin/chromium", "/usr/bin/chromedriver"] {
            try TestEnvironment.require(FileManager.default.isExecutableFile(atPath: tool),
                                        "\(tool) (apt-get install chromium chromium-driver; scripts/install-deps.sh)")
        }
        let shared = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Browser").path
        let result = try python(script, arguments: [shared, sheet, screenshot], requiring: "selenium")
        XCTAssertEqual(result.status, 0, result.stderr)
        return try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], result.stdout + result.stderr)
    }

    static let browserScript = #"""
        import json, sys
        sys.path.insert(0, sys.argv[1])
        import browser
        from selenium.webdriver.common.by import By
        from selenium.webdriver.support.ui import Select

        page, shot = sys.argv[2], sys.argv[3]
        d = browser.start(1280, 2400)
        try:
            d.get("file://" + page)
            browser.wait_for(d, lambda d: d.execute_script("return document.readyState") == "complete")
            d.execute_script("window.scrollTo(0, document.body.scrollHeight)")
            done = """return Array.from(document.querySelectorAll('.box')).every(b =>
                b.classList.contains('placeholder') || (b.querySelector('img') && b.querySelector('img').complete))"""
            browser.wait_for(d, lambda d: d.execute_script(done), message="every thumbnail shown or explained")
            d.execute_script("window.scrollTo(0, 0)")
            browser.screenshot(d, shot)
            cards = lambda: d.execute_script(
                "return Array.from(document.querySelectorAll('article.card'), c => [c.dataset.input, c.dataset.status, c.dataset.watch])")
            inputs = lambda: [c[0] for c in cards()]
            out = {
                "cards": cards(),
                "errors": [e.text for e in d.find_elements(By.CSS_SELECTOR, "article.card .error")],
                "images": d.execute_script("return Array.from(document.querySelectorAll('.box img'), i => ({alt: i.alt, width: i.naturalWidth}))"),
                "placeholders": [e.get_attribute("title") for e in d.find_elements(By.CSS_SELECTOR, ".box.placeholder")],
                "drawn": [e.text.strip() for e in d.find_elements(By.CSS_SELECTOR, ".chain .drawn")],
                "resources": d.execute_script("return performance.getEntriesByType('resource').length"),
            }
            box = lambda status: d.find_element(By.CSS_SELECTOR, "input[name=status][value=%s]" % status)
            box("ok").click()
            out["failedOnly"] = inputs()
            box("ok").click(); box("failed").click()
            out["okOnly"] = inputs()
            box("failed").click()
            Select(d.find_element(By.ID, "watch")).select_by_value("scans")
            out["scansOnly"] = inputs()
            print(json.dumps(out))
        finally:
            browser.stop(d)
        """#

    /// The 5,000-report sheet as a reader meets it: what is on screen at first, what appears on
    /// scrolling, and the filters.
    static let manyScript = #"""
        import json, sys
        sys.path.insert(0, sys.argv[1])
        import browser
        from selenium.webdriver.common.by import By
        from selenium.webdriver.support.ui import Select

        page, shot = sys.argv[2], sys.argv[3]
        d = browser.start(1280, 1000)
        js = d.execute_script
        try:
            d.get("file://" + page)
            browser.wait_for(d, lambda d: js("return document.readyState") == "complete")
            first = d.find_element(By.CSS_SELECTOR, "article.card")
            img = browser.wait_for(d, lambda d: first.find_elements(By.CSS_SELECTOR, ".box img"), message="the first card's picture")[0]
            browser.wait_for(d, lambda d: js("return arguments[0].complete && arguments[0].naturalWidth > 0", img), message="the first picture decoded")
            out = {
                "first": [first.get_attribute("data-status"), first.get_attribute("data-input")],
                "firstVisible": first.is_displayed() and js("return arguments[0].getBoundingClientRect().top < innerHeight", first),
                "firstPicture": js("return arguments[0].naturalWidth", img),
            }
            # Read at one moment: the cards laid out, the pictures made, what the page says it shows.
            out.update(js("""return {openedCards: document.querySelectorAll('article.card').length,
                openedPictures: document.querySelectorAll('.box img').length, shownText: document.getElementById('shown').textContent}"""))
            browser.screenshot(d, shot)
            # The last card laid out, far below the screen: no picture until it is scrolled to.
            far = d.find_elements(By.CSS_SELECTOR, "article.card")[-1]
            out["farCardHadPicture"] = bool(far.find_elements(By.CSS_SELECTOR, ".box img"))
            js("arguments[0].scrollIntoView()", far)
            pic = browser.wait_for(d, lambda d: far.find_elements(By.CSS_SELECTOR, ".box img"), message="the far card's picture")[0]
            browser.wait_for(d, lambda d: js("return arguments[0].complete", pic))
            out["farCardPictureWidth"] = js("return arguments[0].naturalWidth", pic)
            opened = out["openedCards"]
            def scrolled(d):
                js("window.scrollTo(0, document.body.scrollHeight)")
                n = len(d.find_elements(By.CSS_SELECTOR, "article.card"))
                return n if n > opened else False
            out["scrolledCards"] = browser.wait_for(d, scrolled, message="no more cards on scrolling")

            def all_cards(d, want):
                js("window.scrollTo(0, document.body.scrollHeight)")
                cards = js("return Array.from(document.querySelectorAll('article.card'), c => [c.dataset.input, c.dataset.status, c.dataset.watch])")
                return cards if len(cards) >= want else False
            js("window.scrollTo(0, 0)")
            d.find_element(By.CSS_SELECTOR, "input[name=status][value=ok]").click()
            failed = browser.wait_for(d, lambda d: all_cards(d, 200), message="the 200 failures")
            out["failedOnly"] = [c[0] for c in failed if c[1] == "failed"] if all(c[1] == "failed" for c in failed) else [c[1] for c in failed]
            out["failedText"] = d.find_element(By.ID, "shown").text
            d.find_element(By.CSS_SELECTOR, "input[name=status][value=ok]").click()
            js("window.scrollTo(0, 0)")
            Select(d.find_element(By.ID, "watch")).select_by_value("scans")
            scans = browser.wait_for(d, lambda d: all_cards(d, 1), message="the scans cards")
            out["scansWatches"] = sorted(set(c[2] for c in scans))
            out["scansText"] = d.find_element(By.ID, "shown").text
            print(json.dumps(out))
        finally:
            browser.stop(d)
        """#
}
