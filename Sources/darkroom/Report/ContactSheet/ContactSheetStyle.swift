/// The contact sheet's stylesheet. Thumbnails sit in boxes of a fixed size, so the layout does
/// not move as they appear.
enum ContactSheetStyle {
    static func css(thumbnailSize: Int) -> String {
        """
        :root{--t:\(thumbnailSize)px;--bad:#b3261e;--ok:#1b6e3a;--muted:#5f6368;font:14px/1.4 system-ui,sans-serif;color:#202124;background:#f6f6f4}
        body{margin:0 auto;max-width:1400px;padding:16px}
        h1{margin:0;font-size:22px}h2{font-size:15px;margin:8px 0 4px}
        .sub,.muted{color:var(--muted)}
        .figures{display:flex;flex-wrap:wrap;gap:8px;margin:12px 0}
        .figure{background:#fff;border:1px solid #ddd;border-radius:6px;padding:6px 10px}
        .figure dt{font-size:12px;color:var(--muted)}.figure dd{margin:0;font-weight:600}
        .figure[data-figure=failed] dd{color:var(--bad)}
        .lists{display:flex;flex-wrap:wrap;gap:32px}.lists ul,.lists ol{margin:0;padding-left:20px}
        .path{word-break:break-all}.warn{color:var(--bad)}
        .filters{display:flex;flex-wrap:wrap;gap:16px;align-items:center;position:sticky;top:0;z-index:1;background:#f6f6f4;padding:8px 0;border-bottom:1px solid #ddd}
        .filters fieldset{border:0;margin:0;padding:0;display:flex;gap:12px}.filters legend{float:left;margin-right:8px;font-weight:600}
        #cards{display:flex;flex-direction:column;gap:10px;margin-top:10px}
        .card{background:#fff;border:1px solid #ddd;border-left:5px solid var(--ok);border-radius:6px;padding:10px 12px}
        .card.failed{border-left-color:var(--bad)}.card.skipped{border-left-color:#999}
        .card header{display:flex;flex-wrap:wrap;gap:10px;align-items:baseline}
        .card .name{font-weight:600}.badge{font-size:12px;padding:1px 6px;border-radius:9px;background:#e6f4ea;color:var(--ok)}
        .failed .badge{background:#fce8e6;color:var(--bad)}.skipped .badge{background:#eee;color:#444}
        .error{color:var(--bad);margin:6px 0}.error code{font-weight:600}
        .row{display:flex;flex-wrap:wrap;gap:12px;align-items:flex-start;margin-top:8px}
        figure{margin:0;width:var(--t)}
        .box{width:var(--t);height:var(--t);display:flex;align-items:center;justify-content:center;background:repeating-conic-gradient(#eee 0 25%,#fff 0 50%) 0 0/16px 16px;border:1px solid #ddd}
        .box img{max-width:100%;max-height:100%}
        .placeholder{background:#fafafa;color:var(--bad);font-size:12px;padding:6px;overflow:auto;word-break:break-word;text-align:center}
        figcaption{font-size:12px;color:var(--muted);overflow-wrap:anywhere}
        .note{color:#8a5a00}
        .arrow{align-self:center;font-size:20px;color:var(--muted)}
        .outputs{display:flex;flex-direction:column;gap:8px;flex:1;min-width:280px}
        .output{display:flex;gap:12px}
        .chain{font-family:ui-monospace,monospace;font-size:12px;background:#f3f3f3;padding:4px 6px;border-radius:4px;word-break:break-word}
        .drawn{background:#fff3c4;border-bottom:1px dotted #8a5a00}
        .times{font-size:12px;color:var(--muted)}
        #more{text-align:center;color:var(--muted)}
        """
    }
}
