/// The status page's only stylesheet, inline and allowed by its hash (`PagePolicy`). Every text colour
/// keeps a contrast of at least 4.5:1 against its background, in the light and the dark scheme; state
/// is never shown by colour alone (each badge is a word).
enum PageStyle {
    static let text = """
        :root{--bg:#fff;--fg:#1b1b1b;--muted:#545454;--line:#c9ccd1;--card:#f5f6f8;--link:#0645ad;\
        --fresh-bg:#e3f3e8;--fresh-fg:#14532d;--stale-bg:#fbe9e7;--stale-fg:#8a1c1c;--busy-bg:#e8eefb;\
        --busy-fg:#1d3f7a;--accent:#1f5fad;--up:#14532d;--down:#8a1c1c}
        @media (prefers-color-scheme:dark){:root{--bg:#121417;--fg:#e9e9e9;--muted:#b4b4b4;--line:#3b4047;\
        --card:#1b1f25;--link:#93bbfa;--fresh-bg:#153a22;--fresh-fg:#b9f0c9;--stale-bg:#4a1d1d;--stale-fg:#ffd2d2;\
        --busy-bg:#1e2d4a;--busy-fg:#cddcff;--accent:#93bbfa;--up:#9fe3b3;--down:#ffb8b8}}
        *{box-sizing:border-box}
        body{margin:0;background:var(--bg);color:var(--fg);font:16px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif}
        header,main,footer{max-width:76rem;margin:0 auto;padding:0 1rem}
        h1{margin:1rem 0 0;font-size:1.6rem}
        h2{margin:1.5rem 0 .5rem;font-size:1.3rem}
        h3{margin:0 0 .25rem;font-size:1.1rem}
        a{color:var(--link)}
        code{font-family:ui-monospace,"DejaVu Sans Mono",monospace;font-size:.92em;overflow-wrap:anywhere}
        :focus-visible{outline:3px solid var(--accent);outline-offset:2px}
        .skip{position:absolute;left:-999rem}
        .skip:focus{left:1rem;top:.5rem;background:var(--bg);padding:.25rem .5rem}
        .hint{color:var(--muted);font-size:.9rem}
        .cards{display:grid;grid-template-columns:repeat(auto-fit,minmax(22rem,1fr));gap:1rem}
        .card{border:1px solid var(--line);border-radius:6px;padding:.75rem 1rem;background:var(--card)}
        .card .hint{margin-bottom:0}
        .state{margin:.25rem 0}
        dl{display:grid;grid-template-columns:max-content 1fr;gap:.2rem 1rem;margin:.5rem 0}
        dt{color:var(--muted)}
        dd{margin:0;overflow-wrap:anywhere}
        .badge{display:inline-block;padding:0 .55rem;border-radius:1rem;font-weight:600;font-size:.9rem}
        .badge.fresh{background:var(--fresh-bg);color:var(--fresh-fg)}
        .badge.stale{background:var(--stale-bg);color:var(--stale-fg)}
        .badge.busy{background:var(--busy-bg);color:var(--busy-fg)}
        .error,.outcome.failed,.down{color:var(--down)}
        .outcome.ok,.up{color:var(--up)}
        .age{color:var(--muted)}
        .refresh{display:flex;flex-wrap:wrap;align-items:center;gap:.25rem 1rem}
        .refresh[hidden],.admin[hidden]{display:none}
        .outcome{margin:.25rem 0}
        .admin{margin:0 0 1rem}
        .admin input{margin-left:.5rem;width:18rem;max-width:100%}
        button,select,input{font:inherit;color:inherit}
        button{padding:.3rem .9rem;border:1px solid var(--accent);border-radius:4px;background:var(--bg);cursor:pointer}
        button[disabled]{cursor:progress}
        select,input{padding:.2rem .4rem;border:1px solid var(--muted);border-radius:4px;background:var(--bg)}
        .selection{display:flex;flex-wrap:wrap;align-items:center;gap:.5rem 1rem;margin:0 0 1rem}
        .rates-layout{display:grid;gap:1.5rem;align-items:start}
        @media (min-width:64rem){.rates-layout{grid-template-columns:minmax(0,1fr) minmax(0,1.3fr)}}
        table{border-collapse:collapse;width:100%}
        caption{caption-side:top;text-align:left;font-weight:600;padding:.25rem 0 .5rem}
        th,td{padding:.25rem .6rem;border-bottom:1px solid var(--line);text-align:left;vertical-align:top}
        thead th{border-bottom:2px solid var(--muted)}
        .num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
        .chart{margin:0;position:sticky;top:1rem}
        .chart svg{width:100%;height:auto;display:block}
        .chart .grid line{stroke:var(--line);stroke-width:1}
        .chart text{fill:var(--muted);font-size:13px}
        .chart .line{fill:none;stroke:var(--accent);stroke-width:2}
        .chart .points circle{fill:var(--accent)}
        .chart figcaption{color:var(--muted);font-size:.9rem}
        [aria-busy=true]{cursor:progress}

        """
}
