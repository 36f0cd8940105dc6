<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de_DE">
<context>
    <name>ContentPreview</name>
    <message>
        <source>Text</source>
        <translation>Text</translation>
    </message>
    <message>
        <source>Hex</source>
        <translation>Hex</translation>
    </message>
    <message>
        <source>Both files as text, line facing line</source>
        <translation>Beide Dateien als Text, Zeile neben Zeile</translation>
    </message>
    <message>
        <source>Both files&apos; bytes, lined up after insertions</source>
        <translation>Die Bytes beider Dateien, nach Einfügungen wieder ausgerichtet</translation>
    </message>
    <message>
        <source>Reading…</source>
        <translation>Wird gelesen…</translation>
    </message>
    <message>
        <source>Reading for the preview</source>
        <translation>Wird für die Vorschau gelesen</translation>
    </message>
    <message>
        <source>These files are not both text (a NUL byte or many control characters near the start): the Hex tab shows their bytes.</source>
        <translation>Diese Dateien sind nicht beide Text (ein NUL-Byte oder viele Steuerzeichen am Anfang): Der Reiter „Hex“ zeigt ihre Bytes.</translation>
    </message>
    <message>
        <source>Cannot show a preview: {why}</source>
        <translation>Keine Vorschau möglich: {why}</translation>
    </message>
</context>
<context>
    <name>CopiesModel</name>
    <message>
        <source>Name</source>
        <translation>Name</translation>
    </message>
    <message>
        <source>Folder</source>
        <translation>Ordner</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>Größe</translation>
    </message>
    <message>
        <source>Modified</source>
        <translation>Geändert</translation>
    </message>
    <message>
        <source>Similarity</source>
        <translation>Ähnlichkeit</translation>
    </message>
    <message>
        <source>Identical</source>
        <translation>Identisch</translation>
    </message>
    <message>
        <source>Kept file</source>
        <translation>Behaltene Datei</translation>
    </message>
    <message>
        <source>identical</source>
        <translation>identisch</translation>
    </message>
    <message>
        <source>similar</source>
        <translation>ähnlich</translation>
    </message>
</context>
<context>
    <name>CrashReporter</name>
    <message>
        <source>simgui: unexpected error</source>
        <translation>simgui: unerwarteter Fehler</translation>
    </message>
    <message>
        <source>Something went wrong inside simgui. Your files and the store are safe: nothing is changed on disk without a finished, journaled step.</source>
        <translation>In simgui ist etwas schiefgegangen. Ihre Dateien und der Speicher sind sicher: Auf der Festplatte wird nichts ohne einen abgeschlossenen, protokollierten Schritt geändert.</translation>
    </message>
    <message>
        <source>The details are also in the log: {path}</source>
        <translation>Die Einzelheiten stehen auch im Protokoll: {path}</translation>
    </message>
</context>
<context>
    <name>DetailsPanel</name>
    <message>
        <source>. These are the files&apos; bytes: a picture saved again shares few of them with its original even when the two look the same.</source>
        <translation>. Das sind die Bytes der Dateien: Ein erneut gespeichertes Bild teilt nur wenige davon mit seinem Original, auch wenn beide gleich aussehen.</translation>
    </message>
    <message>
        <source>reference</source>
        <translation>Referenz</translation>
    </message>
    <message>
        <source>member</source>
        <translation>Mitglied</translation>
    </message>
    <message>
        <source>A: {a} changed, B: {b} changed (share of {block}-byte blocks not found in the other file)</source>
        <translation>A: {a} geändert, B: {b} geändert (Anteil der {block}-Byte-Blöcke, die in der anderen Datei fehlen)</translation>
    </message>
    <message>
        <source>Compare contents</source>
        <translation>Inhalte vergleichen</translation>
    </message>
    <message>
        <source>Read both files and show where their contents differ</source>
        <translation>Beide Dateien lesen und zeigen, wo sich ihre Inhalte unterscheiden</translation>
    </message>
    <message>
        <source>Where they differ</source>
        <translation>Wo sie sich unterscheiden</translation>
    </message>
    <message>
        <source>Pictures</source>
        <translation>Bilder</translation>
    </message>
    <message>
        <source>Sum table</source>
        <translation>Summentabelle</translation>
    </message>
    <message>
        <source>Select a file to see its details</source>
        <translation>Wählen Sie eine Datei, um ihre Details zu sehen</translation>
    </message>
    <message>
        <source>Select two to see where their contents differ.</source>
        <translation>Wählen Sie zwei, um zu sehen, wo sich ihre Inhalte unterscheiden.</translation>
    </message>
    <message>
        <source>{a}  vs  {b}</source>
        <translation>{a}  und  {b}</translation>
    </message>
    <message>
        <source>{n} files selected; the first two are shown.</source>
        <translation>{n} Dateien ausgewählt; die ersten beiden werden gezeigt.</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Name</translation>
    </message>
    <message>
        <source>Folder</source>
        <translation>Ordner</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>Größe</translation>
    </message>
    <message>
        <source>{size} ({n:,} bytes)</source>
        <translation>{size} ({n:,} Bytes)</translation>
    </message>
    <message>
        <source>Modified</source>
        <translation>Geändert</translation>
    </message>
    <message>
        <source>Extension</source>
        <translation>Endung</translation>
    </message>
    <message>
        <source>(none)</source>
        <translation>(keine)</translation>
    </message>
    <message>
        <source>Key</source>
        <translation>Schlüssel</translation>
    </message>
    <message>
        <source>Role</source>
        <translation>Rolle</translation>
    </message>
    <message>
        <source>Similarity to reference</source>
        <translation>Ähnlichkeit zur Referenz</translation>
    </message>
    <message>
        <source>Similarity</source>
        <translation>Ähnlichkeit</translation>
    </message>
    <message>
        <source>Key distance to reference</source>
        <translation>Schlüsselabstand zur Referenz</translation>
    </message>
    <message>
        <source>Key distance</source>
        <translation>Schlüsselabstand</translation>
    </message>
    <message>
        <source>Sum distance to reference</source>
        <translation>Summenabstand zur Referenz</translation>
    </message>
    <message>
        <source>Sum distance</source>
        <translation>Summenabstand</translation>
    </message>
    <message>
        <source>equal sum tables · </source>
        <translation>gleiche Summentabellen · </translation>
    </message>
    <message>
        <source>A to B</source>
        <translation>A zu B</translation>
    </message>
    <message>
        <source>key distance {key:,.1f} · sum distance {sum:,}</source>
        <translation>Schlüsselabstand {key:,.1f} · Summenabstand {sum:,}</translation>
    </message>
    <message>
        <source>identical (100 %)</source>
        <translation>identisch (100 %)</translation>
    </message>
    <message>
        <source>unknown (scan again)</source>
        <translation>unbekannt (erneut scannen)</translation>
    </message>
    <message>
        <source>{percent} % alike</source>
        <translation>{percent} % ähnlich</translation>
    </message>
    <message>
        <source>{percent} % in common</source>
        <translation>{percent} % gemeinsam</translation>
    </message>
    <message>
        <source>Tag</source>
        <translation>Tag</translation>
    </message>
    <message>
        <source>Count</source>
        <translation>Anzahl</translation>
    </message>
    <message>
        <source>, character {char}</source>
        <translation>, Zeichen {char}</translation>
    </message>
    <message>
        <source>Tag 0x{tag:02x}: bits {tag:08b}{char}</source>
        <translation>Tag 0x{tag:02x}: Bits {tag:08b}{char}</translation>
    </message>
    <message>
        <source>Sum tables</source>
        <translation>Summentabellen</translation>
    </message>
    <message>
        <source>{n} of {total} counts differ; sum-table distance (L1) {distance:,}.</source>
        <translation>{n} von {total} Zählwerten weichen ab; Summentabellen-Abstand (L1) {distance:,}.</translation>
    </message>
    <message>
        <source>The sum tables are equal.</source>
        <translation>Die Summentabellen sind gleich.</translation>
    </message>
    <message>
        <source>{n:,} counted tag matches.</source>
        <translation>{n:,} gezählte Tag-Treffer.</translation>
    </message>
    <message>
        <source>Large files ({a} and {b}) are compared only on request: press “Compare contents”.</source>
        <translation>Große Dateien ({a} und {b}) werden nur auf Wunsch verglichen: Drücken Sie „Inhalte vergleichen“.</translation>
    </message>
    <message>
        <source>Comparing…</source>
        <translation>Wird verglichen…</translation>
    </message>
    <message>
        <source>Could not compare the contents: {error}</source>
        <translation>Die Inhalte konnten nicht verglichen werden: {error}</translation>
    </message>
    <message>
        <source>The contents are identical.</source>
        <translation>Die Inhalte sind identisch.</translation>
    </message>
    <message>
        <source>First difference at byte {first:,} (0x{first:x})</source>
        <translation>Erster Unterschied bei Byte {first:,} (0x{first:x})</translation>
    </message>
    <message>
        <source>about {size} of content in common</source>
        <translation>etwa {size} gemeinsamer Inhalt</translation>
    </message>
    <message>
        <source>no content in common</source>
        <translation>kein gemeinsamer Inhalt</translation>
    </message>
    <message>
        <source>only the first {size} of each file were searched for common content</source>
        <translation>nur die ersten {size} jeder Datei wurden nach gemeinsamem Inhalt durchsucht</translation>
    </message>
</context>
<context>
    <name>DiffStrip</name>
    <message>
        <source>same content in the other file</source>
        <translation>gleicher Inhalt in der anderen Datei</translation>
    </message>
    <message>
        <source>not found in the other file</source>
        <translation>fehlt in der anderen Datei</translation>
    </message>
    <message>
        <source>not compared</source>
        <translation>nicht verglichen</translation>
    </message>
    <message>
        <source>first difference</source>
        <translation>erster Unterschied</translation>
    </message>
    <message>
        <source>{name}, bytes {lo:,}–{hi:,}</source>
        <translation>{name}, Bytes {lo:,}–{hi:,}</translation>
    </message>
    <message>
        <source>{where}: not compared (only the first {compared} were)</source>
        <translation>{where}: nicht verglichen (nur die ersten {compared} wurden es)</translation>
    </message>
    <message>
        <source>{where}: {percent} not found in {other}</source>
        <translation>{where}: {percent} fehlen in {other}</translation>
    </message>
</context>
<context>
    <name>DistanceChart</name>
    <message>
        <source>Choose the simhash or MinHash method (Tolerances › Method) to see how far apart your files are</source>
        <translation>Wählen Sie die Methode simhash oder MinHash (Toleranzen › Methode), um zu sehen, wie weit Ihre Dateien auseinanderliegen</translation>
    </message>
    <message>
        <source>Differing bits</source>
        <translation>Abweichende Bits</translation>
    </message>
    <message>
        <source>Estimated resemblance (%)</source>
        <translation>Geschätzte Übereinstimmung (%)</translation>
    </message>
    <message>
        <source>Bars: file pairs at each distance (log scale); {total:,.0f} pairs in all. Unrelated files gather on the right, around 32 bits; near copies on the left, near 0.</source>
        <translation>Balken: Dateipaare je Abstand (logarithmisch); {total:,.0f} Paare insgesamt. Unverwandte Dateien sammeln sich rechts um 32 Bits, Beinahe-Kopien links nahe 0.</translation>
    </message>
    <message>
        <source>Bars: file pairs at each resemblance (log scale); {total:,.0f} pairs in all. Unrelated files gather on the left; near copies on the right, near 100 %.</source>
        <translation>Balken: Dateipaare je Übereinstimmung (logarithmisch); {total:,.0f} Paare insgesamt. Unverwandte Dateien sammeln sich links, Beinahe-Kopien rechts nahe 100 %.</translation>
    </message>
    <message>
        <source>all pairs (estimated from a sample)</source>
        <translation>alle Paare (aus einer Stichprobe geschätzt)</translation>
    </message>
    <message>
        <source>pairs found</source>
        <translation>gefundene Paare</translation>
    </message>
    <message>
        <source>found if the threshold moves there</source>
        <translation>gefunden, wenn die Schwelle dorthin rückt</translation>
    </message>
    <message>
        <source>File pairs (log scale)</source>
        <translation>Dateipaare (logarithmisch)</translation>
    </message>
    <message>
        <source>&lt;b&gt;Fingerprint distances between your files&lt;/b&gt;</source>
        <translation>&lt;b&gt;Fingerabdruck-Abstände zwischen Ihren Dateien&lt;/b&gt;</translation>
    </message>
</context>
<context>
    <name>FolderTreeDialog</name>
    <message>
        <source>normal</source>
        <translation>normal</translation>
    </message>
    <message>
        <source>reference</source>
        <translation>Referenz</translation>
    </message>
    <message>
        <source>excluded</source>
        <translation>ausgeschlossen</translation>
    </message>
    <message>
        <source>Folder states</source>
        <translation>Ordnerzustände</translation>
    </message>
    <message>
        <source>Folder</source>
        <translation>Ordner</translation>
    </message>
    <message>
        <source>State</source>
        <translation>Zustand</translation>
    </message>
    <message>
        <source>Normal</source>
        <translation>Normal</translation>
    </message>
    <message>
        <source>Reference</source>
        <translation>Referenz</translation>
    </message>
    <message>
        <source>Excluded</source>
        <translation>Ausgeschlossen</translation>
    </message>
    <message>
        <source>Type a path to see whether a scan reads it</source>
        <translation>Geben Sie einen Pfad ein, um zu sehen, ob ein Scan ihn liest</translation>
    </message>
    <message>
        <source>A state holds for every folder below, unless one of them says otherwise. &lt;b&gt;Reference&lt;/b&gt;: its files are kept, never moved or deleted. &lt;b&gt;Excluded&lt;/b&gt;: not scanned.</source>
        <translation>Ein Zustand gilt für jeden Ordner darunter, sofern keiner von ihnen etwas anderes festlegt. &lt;b&gt;Referenz&lt;/b&gt;: Seine Dateien werden behalten, nie verschoben oder gelöscht. &lt;b&gt;Ausgeschlossen&lt;/b&gt;: wird nicht gescannt.</translation>
    </message>
    <message>
        <source>{path}
Cannot list: {error}</source>
        <translation>{path}
Kann nicht aufgelistet werden: {error}</translation>
    </message>
    <message>
        <source>{folder} is excluded: nothing below it is scanned.</source>
        <translation>{folder} ist ausgeschlossen: Nichts darunter wird gescannt.</translation>
    </message>
    <message>
        <source>{folder} is a reference: everything below it is kept.</source>
        <translation>{folder} ist eine Referenz: Alles darunter wird behalten.</translation>
    </message>
    <message>
        <source>{state} (from above)</source>
        <translation>{state} (von oben)</translation>
    </message>
    <message>
        <source>Skipped: “{path}” matches a skip pattern.</source>
        <translation>Übersprungen: „{path}“ passt auf ein Auslassmuster.</translation>
    </message>
    <message>
        <source>Skipped: inside the excluded folder {folder}.</source>
        <translation>Übersprungen: im ausgeschlossenen Ordner {folder}.</translation>
    </message>
    <message>
        <source>Scanned, as a reference (kept): inside {folder}.</source>
        <translation>Wird gescannt, als Referenz (behalten): im Ordner {folder}.</translation>
    </message>
    <message>
        <source>Scanned.</source>
        <translation>Wird gescannt.</translation>
    </message>
</context>
<context>
    <name>FoldersPanel</name>
    <message>
        <source>Folders</source>
        <translation>Ordner</translation>
    </message>
    <message>
        <source>Folders to scan. Tick a folder to make it a reference: its files are kept first and never moved or deleted.
Drop folders here.</source>
        <translation>Zu scannende Ordner. Haken Sie einen Ordner an, um ihn zur Referenz zu machen: Seine Dateien werden zuerst behalten und nie verschoben oder gelöscht.
Ordner hierher ziehen.</translation>
    </message>
    <message>
        <source>Add…</source>
        <translation>Hinzufügen…</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>Entfernen</translation>
    </message>
    <message>
        <source>States…</source>
        <translation>Zustände…</translation>
    </message>
    <message>
        <source>Subfolders in a tree: normal, reference or excluded</source>
        <translation>Unterordner als Baum: normal, Referenz oder ausgeschlossen</translation>
    </message>
    <message>
        <source>e.g. .git, *.tmp, node_modules</source>
        <translation>z. B. .git, *.tmp, node_modules</translation>
    </message>
    <message>
        <source>Names to skip (files or folders), separated by commas; * and ? work as in a shell; re: and a regular expression skips the paths it is found in (re:/build/)</source>
        <translation>Auszulassende Namen (Dateien oder Ordner), durch Kommas getrennt; * und ? wirken wie in einer Shell; re: mit einem regulären Ausdruck lässt die Pfade aus, in denen er vorkommt (re:/build/)</translation>
    </message>
    <message>
        <source>Skip files smaller than this (e.g. 0, 4k, 1M)</source>
        <translation>Dateien auslassen, die kleiner sind (z. B. 0, 4k, 1M)</translation>
    </message>
    <message>
        <source>Skip names</source>
        <translation>Namen auslassen</translation>
    </message>
    <message>
        <source>Minimum size</source>
        <translation>Mindestgröße</translation>
    </message>
    <message>
        <source>Add a folder to scan</source>
        <translation>Einen zu scannenden Ordner hinzufügen</translation>
    </message>
    <message>
        <source>{folder}
Tick to make it a reference folder (protected)</source>
        <translation>{folder}
Anhaken, um ihn zum Referenzordner zu machen (geschützt)</translation>
    </message>
    <message>
        <source>Not a folder, not added: {folders}</source>
        <translation>Kein Ordner, nicht hinzugefügt: {folders}</translation>
    </message>
    <message>
        <source>Left out: {patterns}</source>
        <translation>Weggelassen: {patterns}</translation>
    </message>
    <message>
        <source>Minimum size: {error}</source>
        <translation>Mindestgröße: {error}</translation>
    </message>
</context>
<context>
    <name>GroupsModel</name>
    <message>
        <source>Name</source>
        <translation>Name</translation>
    </message>
    <message>
        <source>Folder</source>
        <translation>Ordner</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>Größe</translation>
    </message>
    <message>
        <source>Modified</source>
        <translation>Geändert</translation>
    </message>
    <message>
        <source>Similarity</source>
        <translation>Ähnlichkeit</translation>
    </message>
    <message>
        <source>Key distance</source>
        <translation>Schlüsselabstand</translation>
    </message>
    <message>
        <source>Sum-table distance</source>
        <translation>Summentabellen-Abstand</translation>
    </message>
    <message>
        <source>Identical</source>
        <translation>Identisch</translation>
    </message>
    <message>
        <source>Size vs reference</source>
        <translation>Größe ggü. Referenz</translation>
    </message>
    <message>
        <source>Time vs reference</source>
        <translation>Zeit ggü. Referenz</translation>
    </message>
    <message>
        <source>Picture</source>
        <translation>Bild</translation>
    </message>
    <message>
        <source>Space the other files of this group take (what removing them frees)</source>
        <extracomment>a thumbnail, painted by simgui.gui.picture_thumbs (the model gives it no text) Role giving the file index (into the table&apos;s files) of a file row, -1 for group rows. Role giving the group number (0-based, in the table) of any row. (table, files) -&gt; the table with those files as their groups&apos; references; set by the window (it needs the search&apos;s data: see core.search.rereference)</extracomment>
        <translation>Platz, den die übrigen Dateien dieser Gruppe belegen (was ihr Entfernen freigibt)</translation>
    </message>
    <message>
        <source>{n} files · {size} to free</source>
        <translation>{n} Dateien · {size} freizugeben</translation>
    </message>
    <message>
        <source>all copies</source>
        <translation>alle Kopien</translation>
    </message>
    <message>
        <source>{same} of {n}</source>
        <translation>{same} von {n}</translation>
    </message>
    <message>
        <source>similar</source>
        <translation>ähnlich</translation>
    </message>
    <message>
        <source>
Reference: the file the others are compared with; it is kept, so it cannot be marked (Make Reference keeps another file instead)</source>
        <translation>
Referenz: die Datei, mit der die anderen verglichen werden; sie wird behalten und kann daher nicht markiert werden („Zur Referenz machen“ behält stattdessen eine andere Datei)</translation>
    </message>
    <message>
        <source>
In a reference folder: never marked, moved or deleted</source>
        <translation>
In einem Referenzordner: wird nie markiert, verschoben oder gelöscht</translation>
    </message>
    <message>
        <source>
Identical to {path} (both only similar to the reference)</source>
        <translation>
Identisch mit {path} (beide der Referenz nur ähnlich)</translation>
    </message>
    <message>
        <source>
{n} other member is an identical copy of this one (all only similar to the reference)</source>
        <translation>
{n} weiteres Mitglied ist eine identische Kopie dieser Datei (alle der Referenz nur ähnlich)</translation>
    </message>
    <message>
        <source>
{n} other members are identical copies of this one (all only similar to the reference)</source>
        <translation>
{n} weitere Mitglieder sind identische Kopien dieser Datei (alle der Referenz nur ähnlich)</translation>
    </message>
    <message>
        <source>{name}  (reference)</source>
        <translation>{name}  (Referenz)</translation>
    </message>
    <message>
        <source>identical</source>
        <translation>identisch</translation>
    </message>
    <message>
        <source>similar · copy of {path}</source>
        <translation>ähnlich · Kopie von {path}</translation>
    </message>
    <message>
        <source>similar · has {n} copy</source>
        <translation>ähnlich · hat {n} Kopie</translation>
    </message>
    <message>
        <source>similar · has {n} copies</source>
        <translation>ähnlich · hat {n} Kopien</translation>
    </message>
    <message>
        <source>same</source>
        <translation>gleich</translation>
    </message>
    <message>
        <source>y</source>
        <translation>J</translation>
    </message>
    <message>
        <source>d</source>
        <translation>T</translation>
    </message>
    <message>
        <source>h</source>
        <translation>h</translation>
    </message>
    <message>
        <source>min</source>
        <translation>min</translation>
    </message>
    <message>
        <source>s</source>
        <translation>s</translation>
    </message>
    <message>
        <source>File name; tick the files to act on</source>
        <translation>Dateiname; haken Sie die Dateien an, mit denen etwas geschehen soll</translation>
    </message>
    <message>
        <source>Folder holding the file</source>
        <translation>Ordner, der die Datei enthält</translation>
    </message>
    <message>
        <source>File size; on group rows, the space the group&apos;s other files take</source>
        <translation>Dateigröße; in Gruppenzeilen der Platz, den die übrigen Dateien der Gruppe belegen</translation>
    </message>
    <message>
        <source>Last modified</source>
        <translation>Zuletzt geändert</translation>
    </message>
    <message>
        <source>100 % for identical copies; lower the more the sum tables differ</source>
        <translation>100 % bei identischen Kopien; umso weniger, je mehr sich die Summentabellen unterscheiden</translation>
    </message>
    <message>
        <source>How far the file&apos;s key is from the reference&apos;s key</source>
        <translation>Wie weit der Schlüssel der Datei vom Schlüssel der Referenz entfernt ist</translation>
    </message>
    <message>
        <source>L1 distance between the file&apos;s sum table and the reference&apos;s</source>
        <translation>L1-Abstand zwischen der Summentabelle der Datei und der der Referenz</translation>
    </message>
    <message>
        <source>Identical: same size, sum table and content hash as the reference; similar files that are identical to each other are marked as copies</source>
        <translation>Identisch: gleiche Größe, Summentabelle und Inhalts-Hash wie die Referenz; ähnliche Dateien, die untereinander identisch sind, werden als Kopien gekennzeichnet</translation>
    </message>
    <message>
        <source>How much larger (+) or smaller (−) than the group&apos;s reference</source>
        <translation>Um wie viel größer (+) oder kleiner (−) als die Referenz der Gruppe</translation>
    </message>
    <message>
        <source>How much newer (+) or older (−) than the group&apos;s reference</source>
        <translation>Um wie viel neuer (+) oder älter (−) als die Referenz der Gruppe</translation>
    </message>
    <message>
        <source>A thumbnail of the picture (a group row: its reference&apos;s)</source>
        <translation>Ein Vorschaubild des Bildes (in einer Gruppenzeile: das der Referenz)</translation>
    </message>
</context>
<context>
    <name>GroupsView</name>
    <message>
        <source>Filter by path…  (Ctrl+F)</source>
        <extracomment>Groups open by default when there are at most this many. Columns shown only when the user asks (right-click on the header). Groups whose reference is looked at to tell whether the groups are of pictures. The narrowest Name and Folder columns are fitted to, in average characters. pairs of paths the user said are not duplicates (see GroupsModel.pairs_to_ignore)</extracomment>
        <translation>Nach Pfad filtern…  (Strg+F)</translation>
    </message>
    <message>
        <source>Add Folder…</source>
        <translation>Ordner hinzufügen…</translation>
    </message>
    <message>
        <source>Copies Only</source>
        <translation>Nur Kopien</translation>
    </message>
    <message>
        <source>One row per file that is not its group&apos;s reference, flat and sortable</source>
        <translation>Eine Zeile je Datei, die nicht Referenz ihrer Gruppe ist, flach und sortierbar</translation>
    </message>
    <message>
        <source>Open File</source>
        <translation>Datei öffnen</translation>
    </message>
    <message>
        <source>Show in Folder</source>
        <translation>Im Ordner zeigen</translation>
    </message>
    <message>
        <source>Make Reference</source>
        <extracomment>open every group at the next new table if there are few (set for new results; a slider move keeps the groups the user opened)</extracomment>
        <translation>Zur Referenz machen</translation>
    </message>
    <message>
        <source>Keep this file instead of the group&apos;s reference (the reference cannot be marked)</source>
        <translation>Diese Datei statt der Referenz der Gruppe behalten (die Referenz kann nicht markiert werden)</translation>
    </message>
    <message>
        <source>Expand All Groups</source>
        <translation>Alle Gruppen aufklappen</translation>
    </message>
    <message>
        <source>Collapse All Groups</source>
        <translation>Alle Gruppen zuklappen</translation>
    </message>
    <message>
        <source>Not Duplicates (Ignore)</source>
        <translation>Keine Duplikate (ignorieren)</translation>
    </message>
    <message>
        <source>These files are not duplicates: they leave the group now and in every later search (the ignore list, in Settings)</source>
        <translation>Diese Dateien sind keine Duplikate: Sie verlassen die Gruppe jetzt und bei jeder späteren Suche (die Ignorierliste, in den Einstellungen)</translation>
    </message>
    <message>
        <source>&lt;h3&gt;Add a folder to begin&lt;/h3&gt;&lt;p&gt;Use &lt;b&gt;Add Folder&lt;/b&gt;, or drop folders on the Folders list, then press &lt;b&gt;Scan&lt;/b&gt;.&lt;/p&gt;</source>
        <translation>&lt;h3&gt;Fügen Sie zum Beginnen einen Ordner hinzu&lt;/h3&gt;&lt;p&gt;Nutzen Sie &lt;b&gt;Ordner hinzufügen&lt;/b&gt; oder ziehen Sie Ordner auf die Ordnerliste, und drücken Sie dann &lt;b&gt;Scannen&lt;/b&gt;.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>No group has a file whose path contains “{text}”.</source>
        <translation>Keine Gruppe hat eine Datei, deren Pfad „{text}“ enthält.</translation>
    </message>
</context>
<context>
    <name>GuideViewer</name>
    <message>
        <source>simgui User Guide</source>
        <translation>simgui-Benutzerhandbuch</translation>
    </message>
    <message>
        <source># The user guide is missing

This installation has no copy of the guide; it is online at &lt;https://github.com/simgui/simgui/blob/main/docs/user-guide.md&gt;.</source>
        <translation># Das Benutzerhandbuch fehlt

Diese Installation enthält kein Handbuch; es ist online unter &lt;https://github.com/simgui/simgui/blob/main/docs/user-guide.md&gt; zu finden (auf Englisch).</translation>
    </message>
</context>
<context>
    <name>HexCompare</name>
    <message>
        <source>Previous change</source>
        <translation>Vorherige Änderung</translation>
    </message>
    <message>
        <source>Next change</source>
        <translation>Nächste Änderung</translation>
    </message>
    <message>
        <source>The bytes shown are the same in both files.</source>
        <translation>Die gezeigten Bytes sind in beiden Dateien gleich.</translation>
    </message>
    <message>
        <source>Bytes changed: {changed} · only in A: {deleted} · only in B: {inserted}. The rest lines up.</source>
        <translation>Geänderte Bytes: {changed} · nur in A: {deleted} · nur in B: {inserted}. Der Rest stimmt überein.</translation>
    </message>
    <message>
        <source>Only the first {shown} of {letter} ({size}) are shown.</source>
        <translation>Nur die ersten {shown} von {letter} ({size}) werden gezeigt.</translation>
    </message>
    <message>
        <source>changed</source>
        <translation>geändert</translation>
    </message>
    <message>
        <source>only in A</source>
        <translation>nur in A</translation>
    </message>
    <message>
        <source>only in B</source>
        <translation>nur in B</translation>
    </message>
</context>
<context>
    <name>IgnoreListEditor</name>
    <message>
        <source>{first}
is not a duplicate of
{second}</source>
        <translation>{first}
ist kein Duplikat von
{second}</translation>
    </message>
    <message>
        <source>No pairs: right-click a file or group and choose &lt;b&gt;Not Duplicates (Ignore)&lt;/b&gt; to add one.</source>
        <translation>Keine Paare: Klicken Sie mit der rechten Maustaste auf eine Datei oder Gruppe und wählen Sie &lt;b&gt;Keine Duplikate (ignorieren)&lt;/b&gt;, um eines hinzuzufügen.</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>Entfernen</translation>
    </message>
    <message>
        <source>Remove All</source>
        <translation>Alle entfernen</translation>
    </message>
</context>
<context>
    <name>KeySpaceChart</name>
    <message>
        <source>Skew</source>
        <extracomment>Colour-blind-friendly: Okabe &amp; Ito without yellow and black (too faint or too close to the axes on one theme or the other), then Tol&apos;s &quot;muted&quot; hues. The same on dark backgrounds, with Tol&apos;s wine and indigo (too dark there) swapped for his sand and purple. Combo box text (translated where shown, context &quot;KeySpaceChart&quot;), key scheme, extension modification.</extracomment>
        <translation>Skew</translation>
    </message>
    <message>
        <source>Uniform</source>
        <translation>Uniform</translation>
    </message>
    <message>
        <source>Skew + extension</source>
        <translation>Skew + Endung</translation>
    </message>
    <message>
        <source>Uniform + extension</source>
        <translation>Uniform + Endung</translation>
    </message>
    <message>
        <source>extension</source>
        <extracomment>what the colour box shows for each mode</extracomment>
        <translation>Endung</translation>
    </message>
    <message>
        <source>group</source>
        <translation>Gruppe</translation>
    </message>
    <message>
        <source>Scan a folder to see its files in key space</source>
        <extracomment>Above this many points the key space is drawn translucent and finer: where files crowd the colour deepens, so 60,000 files read as density and stripes, not a blob. The user picked another key variant here: (scheme name, use extensions).</extracomment>
        <translation>Scannen Sie einen Ordner, um seine Dateien im Schlüsselraum zu sehen</translation>
    </message>
    <message>
        <source>Which key this chart draws; &apos;+ extension&apos; adds the extension modification (each extension its own stripe).
Only the chart changes: the search&apos;s key is set in the Search panel.</source>
        <translation>Welchen Schlüssel dieses Diagramm zeichnet; „+ Endung“ fügt die Endungsmodifikation hinzu (jede Endung ein eigener Streifen).
Nur das Diagramm ändert sich: Der Schlüssel der Suche wird im Bereich „Suche“ eingestellt.</translation>
    </message>
    <message>
        <source>&lt;b&gt;Key space&lt;/b&gt;</source>
        <translation>&lt;b&gt;Schlüsselraum&lt;/b&gt;</translation>
    </message>
    <message>
        <source>Draw key (chart only):</source>
        <translation>Schlüssel zeichnen (nur Diagramm):</translation>
    </message>
    <message>
        <source>Colour by:</source>
        <translation>Färben nach:</translation>
    </message>
    <message>
        <source>File size (bytes)</source>
        <translation>Dateigröße (Bytes)</translation>
    </message>
    <message>
        <source>Key</source>
        <translation>Schlüssel</translation>
    </message>
    <message>
        <source>(none)</source>
        <translation>(keine)</translation>
    </message>
    <message>
        <source>other</source>
        <translation>andere</translation>
    </message>
    <message>
        <source>{groups:,} groups (colours repeat)</source>
        <translation>{groups:,} Gruppen (Farben wiederholen sich)</translation>
    </message>
    <message>
        <source>in no group</source>
        <translation>in keiner Gruppe</translation>
    </message>
    <message>
        <source>key = size</source>
        <translation>Schlüssel = Größe</translation>
    </message>
    <message>
        <source>{count:,} selected</source>
        <translation>{count:,} ausgewählt</translation>
    </message>
    <message>
        <source>{count:,} files shown</source>
        <translation>{count:,} Dateien gezeigt</translation>
    </message>
    <message>
        <source> (each point translucent: the colour deepens where files crowd)</source>
        <translation> (jeder Punkt durchscheinend: Die Farbe wird kräftiger, wo sich Dateien drängen)</translation>
    </message>
    <message>
        <source>; {count:,} file of 0 bytes or key 0 not shown (log axes)</source>
        <translation>; {count:,} Datei mit 0 Bytes oder Schlüssel 0 nicht gezeigt (logarithmische Achsen)</translation>
    </message>
    <message>
        <source>; {count:,} files of 0 bytes or key 0 not shown (log axes)</source>
        <translation>; {count:,} Dateien mit 0 Bytes oder Schlüssel 0 nicht gezeigt (logarithmische Achsen)</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>Merge</source>
        <translation>Zusammenführen</translation>
    </message>
    <message>
        <source>&lt;h3&gt;Nothing left to clean up&lt;/h3&gt;&lt;p&gt;The clean-up took care of every group at these settings. &lt;b&gt;Undo Last Clean-up&lt;/b&gt; puts its files back.&lt;/p&gt;</source>
        <translation>&lt;h3&gt;Nichts mehr zu bereinigen&lt;/h3&gt;&lt;p&gt;Die Bereinigung hat jede Gruppe bei diesen Einstellungen erledigt. &lt;b&gt;Bereinigung rückgängig&lt;/b&gt; legt ihre Dateien zurück.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Move to Trash</source>
        <translation>In den Papierkorb</translation>
    </message>
    <message>
        <source>Move</source>
        <translation>Verschieben</translation>
    </message>
    <message>
        <source>Replace with Hard Links</source>
        <translation>Durch harte Links ersetzen</translation>
    </message>
    <message>
        <source>Reading</source>
        <translation>Lesen</translation>
    </message>
    <message>
        <source>Saving</source>
        <translation>Speichern</translation>
    </message>
    <message>
        <source>Identical copies</source>
        <translation>Identische Kopien</translation>
    </message>
    <message>
        <source>Comparing</source>
        <translation>Vergleichen</translation>
    </message>
    <message>
        <source>Preparing</source>
        <translation>Vorbereiten</translation>
    </message>
    <message>
        <source>Trash</source>
        <translation>Papierkorb</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>Löschen</translation>
    </message>
    <message>
        <source>Hardlink</source>
        <translation>Harter Link</translation>
    </message>
    <message>
        <source>Symlink</source>
        <translation>Symbolischer Link</translation>
    </message>
    <message>
        <source>Undo</source>
        <translation>Rückgängig</translation>
    </message>
    <message>
        <source>Search</source>
        <translation>Suche</translation>
    </message>
    <message>
        <source>Details</source>
        <translation>Details</translation>
    </message>
    <message>
        <source>Key space</source>
        <translation>Schlüsselraum</translation>
    </message>
    <message>
        <source>Tolerance curves</source>
        <translation>Toleranzkurven</translation>
    </message>
    <message>
        <source>Fingerprint distances</source>
        <translation>Fingerabdruck-Abstände</translation>
    </message>
    <message>
        <source>Groups</source>
        <translation>Gruppen</translation>
    </message>
    <message>
        <source>Folders</source>
        <translation>Ordner</translation>
    </message>
    <message>
        <source>Problems</source>
        <translation>Probleme</translation>
    </message>
    <message>
        <source>&amp;Add Folder…</source>
        <translation>Ordner &amp;hinzufügen…</translation>
    </message>
    <message>
        <source>Add a folder to scan</source>
        <translation>Einen zu scannenden Ordner hinzufügen</translation>
    </message>
    <message>
        <source>&amp;Scan</source>
        <translation>&amp;Scannen</translation>
    </message>
    <message>
        <source>Read new and changed files in the folders and find groups</source>
        <translation>Neue und geänderte Dateien in den Ordnern lesen und Gruppen finden</translation>
    </message>
    <message>
        <source>&amp;Cancel</source>
        <translation>&amp;Abbrechen</translation>
    </message>
    <message>
        <source>Stop the running job</source>
        <translation>Die laufende Aufgabe anhalten</translation>
    </message>
    <message>
        <source>&amp;Open Session…</source>
        <translation>Sitzung ö&amp;ffnen…</translation>
    </message>
    <message>
        <source>&amp;Save Session As…</source>
        <translation>Sitzung speichern &amp;unter…</translation>
    </message>
    <message>
        <source>Save folders, tolerances and marks to a file</source>
        <translation>Ordner, Toleranzen und Markierungen in eine Datei speichern</translation>
    </message>
    <message>
        <source>Save &amp;Results As…</source>
        <translation>&amp;Ergebnisse speichern unter…</translation>
    </message>
    <message>
        <source>Save the groups with your marks and chosen references, to review them again later</source>
        <translation>Die Gruppen mit Ihren Markierungen und gewählten Referenzen speichern, um sie später erneut zu prüfen</translation>
    </message>
    <message>
        <source>Open Res&amp;ults…</source>
        <translation>Er&amp;gebnisse öffnen…</translation>
    </message>
    <message>
        <source>Open results saved with Save Results</source>
        <translation>Mit „Ergebnisse speichern“ gesicherte Ergebnisse öffnen</translation>
    </message>
    <message>
        <source>&amp;Export Groups…</source>
        <translation>Gruppen e&amp;xportieren…</translation>
    </message>
    <message>
        <source>Save the groups shown as CSV, JSON or an HTML page</source>
        <translation>Die gezeigten Gruppen als CSV, JSON oder HTML-Seite speichern</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>&amp;Beenden</translation>
    </message>
    <message>
        <source>&amp;Mark All but Reference</source>
        <translation>Alle außer Referenz &amp;markieren</translation>
    </message>
    <message>
        <source>Tick every file in the groups shown except each group&apos;s reference</source>
        <translation>Jede Datei in den gezeigten Gruppen anhaken, außer der Referenz jeder Gruppe</translation>
    </message>
    <message>
        <source>Mark &amp;Identical Copies</source>
        <translation>&amp;Identische Kopien markieren</translation>
    </message>
    <message>
        <source>Tick the files identical to their group&apos;s reference</source>
        <translation>Die Dateien anhaken, die mit der Referenz ihrer Gruppe identisch sind</translation>
    </message>
    <message>
        <source>&amp;Invert Marks</source>
        <translation>Markierungen &amp;umkehren</translation>
    </message>
    <message>
        <source>&amp;Re-prioritize…</source>
        <translation>&amp;Neu priorisieren…</translation>
    </message>
    <message>
        <source>Choose the reference (the file kept) of every group shown by rules: in a folder, newest, largest…</source>
        <translation>Die Referenz (die behaltene Datei) jeder gezeigten Gruppe nach Regeln wählen: in einem Ordner, neueste, größte…</translation>
    </message>
    <message>
        <source>C&amp;lear Marks</source>
        <translation>Markierungen &amp;löschen</translation>
    </message>
    <message>
        <source>&amp;Find…</source>
        <translation>&amp;Suchen…</translation>
    </message>
    <message>
        <source>Move Marked to &amp;Trash…</source>
        <translation>In den &amp;Papierkorb…</translation>
    </message>
    <message>
        <source>Send the ticked files to the trash (undoable)</source>
        <translation>Die angehakten Dateien in den Papierkorb verschieben (rückgängig zu machen)</translation>
    </message>
    <message>
        <source>Mo&amp;ve Marked To…</source>
        <translation>&amp;Verschieben nach…</translation>
    </message>
    <message>
        <source>Move the ticked files to a folder (undoable)</source>
        <translation>Die angehakten Dateien in einen Ordner verschieben (rückgängig zu machen)</translation>
    </message>
    <message>
        <source>Replace Marked with &amp;Hard Links…</source>
        <translation>Durch &amp;harte Links ersetzen…</translation>
    </message>
    <message>
        <source>Replace ticked identical copies with hard links to the kept file</source>
        <translation>Angehakte identische Kopien durch harte Links auf die behaltene Datei ersetzen</translation>
    </message>
    <message>
        <source>&amp;Undo Last Clean-up</source>
        <translation>Bereinigung &amp;rückgängig</translation>
    </message>
    <message>
        <source>Put back what the last trash or move took away</source>
        <translation>Zurücklegen, was das letzte Verschieben in den Papierkorb oder in einen Ordner weggenommen hat</translation>
    </message>
    <message>
        <source>&amp;Settings…</source>
        <translation>&amp;Einstellungen…</translation>
    </message>
    <message>
        <source>&amp;User Guide</source>
        <translation>&amp;Benutzerhandbuch</translation>
    </message>
    <message>
        <source>How to find and clean up duplicates, step by step</source>
        <translation>Wie man Duplikate findet und bereinigt, Schritt für Schritt</translation>
    </message>
    <message>
        <source>&amp;About simgui</source>
        <translation>Ü&amp;ber simgui</translation>
    </message>
    <message>
        <source>About &amp;Qt</source>
        <translation>Über &amp;Qt</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>&amp;Datei</translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation>&amp;Bearbeiten</translation>
    </message>
    <message>
        <source>&amp;Actions</source>
        <translation>&amp;Aktionen</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>A&amp;nsicht</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>&amp;Hilfe</translation>
    </message>
    <message>
        <source>Main</source>
        <translation>Haupt</translation>
    </message>
    <message>
        <source>Tick every file that has an identical copy in its group, except the copy kept</source>
        <translation>Jede Datei anhaken, die eine identische Kopie in ihrer Gruppe hat, außer der behaltenen Kopie</translation>
    </message>
    <message>
        <source>Per-extension tolerances ignored ({error}): correct them in Settings.</source>
        <translation>Toleranzen je Endung ignoriert ({error}): Korrigieren Sie sie in den Einstellungen.</translation>
    </message>
    <message>
        <source>Stopping the running job…</source>
        <translation>Die laufende Aufgabe wird angehalten…</translation>
    </message>
    <message>
        <source>Preparing the engine</source>
        <translation>Die Suchmaschine wird vorbereitet</translation>
    </message>
    <message>
        <source>Loading results</source>
        <translation>Ergebnisse werden geladen</translation>
    </message>
    <message>
        <source>&lt;h3&gt;Loading results…&lt;/h3&gt;&lt;p&gt;The groups found by the last scan appear in a moment.&lt;/p&gt;</source>
        <translation>&lt;h3&gt;Ergebnisse werden geladen…&lt;/h3&gt;&lt;p&gt;Die beim letzten Scan gefundenen Gruppen erscheinen gleich.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Preparing the engine, first start only…</source>
        <translation>Die Suchmaschine wird vorbereitet, nur beim ersten Start…</translation>
    </message>
    <message>
        <source>{job} starts when it is ready.</source>
        <translation>{job} beginnt, sobald sie bereit ist.</translation>
    </message>
    <message>
        <source>%v of %m steps</source>
        <translation>%v von %m Schritten</translation>
    </message>
    <message>
        <source>Ready.</source>
        <translation>Bereit.</translation>
    </message>
    <message>
        <source>Add a folder to scan first.</source>
        <translation>Fügen Sie zuerst einen zu scannenden Ordner hinzu.</translation>
    </message>
    <message>
        <source>Scanning</source>
        <translation>Scannen</translation>
    </message>
    <message>
        <source>&lt;h3&gt;Scanning…&lt;/h3&gt;&lt;p&gt;Groups appear when the scan ends.&lt;/p&gt;</source>
        <translation>&lt;h3&gt;Wird gescannt…&lt;/h3&gt;&lt;p&gt;Die Gruppen erscheinen, wenn der Scan endet.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;h3&gt;Scan starts in a moment…&lt;/h3&gt;&lt;p&gt;The engine is being prepared (first start only); the scan starts when it is ready.&lt;/p&gt;</source>
        <translation>&lt;h3&gt;Der Scan beginnt gleich…&lt;/h3&gt;&lt;p&gt;Die Suchmaschine wird vorbereitet (nur beim ersten Start); der Scan beginnt, sobald sie bereit ist.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Loading the stored files…</source>
        <translation>Die gespeicherten Dateien werden geladen…</translation>
    </message>
    <message>
        <source>Finding identical and similar files among {n:,} files…</source>
        <translation>Identische und ähnliche Dateien unter {n:,} Dateien werden gesucht…</translation>
    </message>
    <message>
        <source>Finding identical and similar files…</source>
        <translation>Identische und ähnliche Dateien werden gesucht…</translation>
    </message>
    <message>
        <source>Read {n:,} files; finding identical and similar files…</source>
        <translation>{n:,} Dateien gelesen; identische und ähnliche Dateien werden gesucht…</translation>
    </message>
    <message>
        <source>Looking for files: {n:,} found</source>
        <translation>Dateien werden gesucht: {n:,} gefunden</translation>
    </message>
    <message>
        <source>Reading the rest for similar files</source>
        <translation>Der Rest wird auf ähnliche Dateien gelesen</translation>
    </message>
    <message>
        <source>{phase}: {n:,} of {total:,} files</source>
        <translation>{phase}: {n:,} von {total:,} Dateien</translation>
    </message>
    <message>
        <source>{phase}: {n:,} files</source>
        <translation>{phase}: {n:,} Dateien</translation>
    </message>
    <message>
        <source>{done} of {total}</source>
        <translation>{done} von {total}</translation>
    </message>
    <message>
        <source>{time} left</source>
        <translation>noch {time}</translation>
    </message>
    <message>
        <source>Identical copies: {n:,} group found · now reading the rest for similar files…</source>
        <translation>Identische Kopien: {n:,} Gruppe gefunden · der Rest wird jetzt auf ähnliche Dateien gelesen…</translation>
    </message>
    <message>
        <source>Identical copies: {n:,} groups found · now reading the rest for similar files…</source>
        <translation>Identische Kopien: {n:,} Gruppen gefunden · der Rest wird jetzt auf ähnliche Dateien gelesen…</translation>
    </message>
    <message>
        <source>Failed: {error}</source>
        <translation>Fehlgeschlagen: {error}</translation>
    </message>
    <message>
        <source>Cancelled. What was done so far is saved; scanning again resumes.</source>
        <translation>Abgebrochen. Was bisher getan wurde, ist gespeichert; ein erneuter Scan setzt dort fort.</translation>
    </message>
    <message>
        <source>{n:,} problem</source>
        <translation>{n:,} Problem</translation>
    </message>
    <message>
        <source>{n:,} problems</source>
        <translation>{n:,} Probleme</translation>
    </message>
    <message>
        <source>{n:,} files</source>
        <translation>{n:,} Dateien</translation>
    </message>
    <message>
        <source>Scanned {found:,} file in {whole} (reading {reading}, then finding groups): {read:,} read, {unchanged:,} unchanged</source>
        <translation>{found:,} Datei in {whole} gescannt (Lesen {reading}, dann Gruppensuche): {read:,} gelesen, {unchanged:,} unverändert</translation>
    </message>
    <message>
        <source>&lt;h3&gt;No files to compare&lt;/h3&gt;&lt;p&gt;The folders hold no file that could be read.&lt;/p&gt;</source>
        <translation>&lt;h3&gt;Keine Dateien zum Vergleichen&lt;/h3&gt;&lt;p&gt;Die Ordner enthalten keine Datei, die gelesen werden konnte.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;h3&gt;Only one file&lt;/h3&gt;&lt;p&gt;The folders hold one file that could be read: there is nothing to compare it with.&lt;/p&gt;</source>
        <translation>&lt;h3&gt;Nur eine Datei&lt;/h3&gt;&lt;p&gt;Die Ordner enthalten eine Datei, die gelesen werden konnte: Es gibt nichts, womit sie sich vergleichen ließe.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;p&gt;Some could not be read, or a folder is gone: see &lt;b&gt;Problems&lt;/b&gt; in the status bar.&lt;/p&gt;</source>
        <translation>&lt;p&gt;Manches konnte nicht gelesen werden, oder ein Ordner fehlt: siehe &lt;b&gt;Probleme&lt;/b&gt; in der Statusleiste.&lt;/p&gt;</translation>
    </message>
    <message>
        <source> · {wait} of it preparing the engine (first start only)</source>
        <translation> · davon {wait} für die Vorbereitung der Suchmaschine (nur beim ersten Start)</translation>
    </message>
    <message>
        <source>Scanned {found:,} files in {whole} (reading {reading}, then finding groups): {read:,} read, {unchanged:,} unchanged</source>
        <translation>{found:,} Dateien in {whole} gescannt (Lesen {reading}, dann Gruppensuche): {read:,} gelesen, {unchanged:,} unverändert</translation>
    </message>
    <message>
        <source> · {n:,} hard link counted once (another name of a file, not a copy)</source>
        <translation> · {n:,} harter Link einmal gezählt (ein weiterer Name einer Datei, keine Kopie)</translation>
    </message>
    <message>
        <source> · {n:,} hard links counted once (other names of files, not copies)</source>
        <translation> · {n:,} harte Links einmal gezählt (weitere Namen von Dateien, keine Kopien)</translation>
    </message>
    <message>
        <source> · {n:,} of them read once more for the content fingerprints that confirm similar files (stored by an older simgui without them)</source>
        <translation> · {n:,} davon noch einmal gelesen für die Inhalts-Fingerabdrücke, die ähnliche Dateien bestätigen (von einem älteren simgui ohne sie gespeichert)</translation>
    </message>
    <message>
        <source> · not scanned yet: {folders}</source>
        <translation> · noch nicht gescannt: {folders}</translation>
    </message>
    <message>
        <source>Clean-up finished</source>
        <translation>Bereinigung abgeschlossen</translation>
    </message>
    <message>
        <source>&lt;h3&gt;Add a folder to begin&lt;/h3&gt;&lt;p&gt;1. &lt;b&gt;Add folders&lt;/b&gt; to look in (or drop them on the Folders list). Tick a folder to protect it as a reference.&lt;br&gt;2. &lt;b&gt;Scan&lt;/b&gt;: every file is read once; rescans read only what changed.&lt;br&gt;3. &lt;b&gt;Review&lt;/b&gt; the groups, tick the extra copies and move them to the trash. Nothing changes before you confirm, and Undo puts files back.&lt;/p&gt;</source>
        <translation>&lt;h3&gt;Fügen Sie zum Beginnen einen Ordner hinzu&lt;/h3&gt;&lt;p&gt;1. &lt;b&gt;Ordner hinzufügen&lt;/b&gt;, in denen gesucht wird (oder auf die Ordnerliste ziehen). Haken Sie einen Ordner an, um ihn als Referenz zu schützen.&lt;br&gt;2. &lt;b&gt;Scannen&lt;/b&gt;: Jede Datei wird einmal gelesen; erneute Scans lesen nur, was sich geändert hat.&lt;br&gt;3. &lt;b&gt;Prüfen&lt;/b&gt; Sie die Gruppen, haken Sie die überzähligen Kopien an und verschieben Sie sie in den Papierkorb. Nichts ändert sich, bevor Sie bestätigen, und „Rückgängig“ legt Dateien zurück.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;h3&gt;The results could not be loaded&lt;/h3&gt;&lt;p&gt;{error}&lt;/p&gt;&lt;p&gt;The store file is chosen in &lt;b&gt;Edit › Settings&lt;/b&gt;.&lt;/p&gt;</source>
        <translation>&lt;h3&gt;Die Ergebnisse konnten nicht geladen werden&lt;/h3&gt;&lt;p&gt;{error}&lt;/p&gt;&lt;p&gt;Die Speicherdatei wird unter &lt;b&gt;Bearbeiten › Einstellungen&lt;/b&gt; gewählt.&lt;/p&gt;</translation>
    </message>
    <message>
        <source> The engine is being prepared (first start only): the scan starts as soon as it is ready.</source>
        <translation> Die Suchmaschine wird vorbereitet (nur beim ersten Start): Der Scan beginnt, sobald sie bereit ist.</translation>
    </message>
    <message>
        <source>&lt;h3&gt;Ready to scan&lt;/h3&gt;&lt;p&gt;Press &lt;b&gt;Scan&lt;/b&gt; to look for identical and similar files in {n} folder.{later}&lt;/p&gt;</source>
        <translation>&lt;h3&gt;Bereit zum Scannen&lt;/h3&gt;&lt;p&gt;Drücken Sie &lt;b&gt;Scannen&lt;/b&gt;, um in {n} Ordner nach identischen und ähnlichen Dateien zu suchen.{later}&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;h3&gt;Ready to scan&lt;/h3&gt;&lt;p&gt;Press &lt;b&gt;Scan&lt;/b&gt; to look for identical and similar files in {n} folders.{later}&lt;/p&gt;</source>
        <translation>&lt;h3&gt;Bereit zum Scannen&lt;/h3&gt;&lt;p&gt;Drücken Sie &lt;b&gt;Scannen&lt;/b&gt;, um in {n} Ordnern nach identischen und ähnlichen Dateien zu suchen.{later}&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;h3&gt;Not scanned yet&lt;/h3&gt;&lt;p&gt;Press &lt;b&gt;Scan&lt;/b&gt; to read the files of:{names}&lt;/p&gt;&lt;p&gt;Nothing is known about these folders until they are scanned.&lt;/p&gt;</source>
        <translation>&lt;h3&gt;Noch nicht gescannt&lt;/h3&gt;&lt;p&gt;Drücken Sie &lt;b&gt;Scannen&lt;/b&gt;, um die Dateien zu lesen von:{names}&lt;/p&gt;&lt;p&gt;Über diese Ordner ist nichts bekannt, bis sie gescannt sind.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;h3&gt;No identical or similar files&lt;/h3&gt;&lt;p&gt;Nothing matches at these tolerances. Raise the sum-table tolerance to find files that differ more.&lt;/p&gt;</source>
        <translation>&lt;h3&gt;Keine identischen oder ähnlichen Dateien&lt;/h3&gt;&lt;p&gt;Bei diesen Toleranzen passt nichts. Erhöhen Sie die Summentabellen-Toleranz, um Dateien zu finden, die sich stärker unterscheiden.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;h3&gt;No identical or similar files&lt;/h3&gt;&lt;p&gt;Nothing matches at these tolerances. Move the threshold to the right to find files that differ more.&lt;/p&gt;</source>
        <translation>&lt;h3&gt;Keine identischen oder ähnlichen Dateien&lt;/h3&gt;&lt;p&gt;Bei diesen Toleranzen passt nichts. Schieben Sie die Schwelle nach rechts, um Dateien zu finden, die sich stärker unterscheiden.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>The tolerance curves belong to the sum-table method (the paper&apos;s).
This search uses {method}: see Fingerprint distances.</source>
        <translation>Die Toleranzkurven gehören zur Summentabellen-Methode (der des Papers).
Diese Suche verwendet {method}: siehe Fingerabdruck-Abstände.</translation>
    </message>
    <message>
        <source>Updating groups</source>
        <translation>Gruppen werden aktualisiert</translation>
    </message>
    <message>
        <source>Custom key</source>
        <translation>Eigener Schlüssel</translation>
    </message>
    <message>
        <source>Weights by tag (hex), e.g. 00=6 74=4.03 65=3.29 a4=2.68:</source>
        <translation>Gewichte je Tag (hexadezimal), z. B. 00=6 74=4.03 65=3.29 a4=2.68:</translation>
    </message>
    <message>
        <source>Not a valid key: {error}</source>
        <translation>Kein gültiger Schlüssel: {error}</translation>
    </message>
    <message>
        <source>{folder} is not trashed: {reason}</source>
        <translation>{folder} wird nicht in den Papierkorb verschoben: {reason}</translation>
    </message>
    <message>
        <source>Folder not trashed</source>
        <translation>Ordner nicht in den Papierkorb verschoben</translation>
    </message>
    <message>
        <source>Nothing was changed.</source>
        <translation>Nichts wurde geändert.</translation>
    </message>
    <message>
        <source>Cleaning up</source>
        <translation>Bereinigen</translation>
    </message>
    <message>
        <source>Folders not merged</source>
        <translation>Ordner nicht zusammengeführt</translation>
    </message>
    <message>
        <source>Merging folders</source>
        <translation>Ordner werden zusammengeführt</translation>
    </message>
    <message>
        <source>simgui results (*.simgui-results)</source>
        <translation>simgui-Ergebnisse (*.simgui-results)</translation>
    </message>
    <message>
        <source>Save results</source>
        <translation>Ergebnisse speichern</translation>
    </message>
    <message>
        <source>Could not save {path}: {error}</source>
        <translation>{path} konnte nicht gespeichert werden: {error}</translation>
    </message>
    <message>
        <source>Saved {n:,} groups to {path}</source>
        <translation>{n:,} Gruppen in {path} gespeichert</translation>
    </message>
    <message>
        <source>Open results</source>
        <translation>Ergebnisse öffnen</translation>
    </message>
    <message>
        <source>;;All files (*)</source>
        <translation>;;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>not a file written by Save Results</source>
        <translation>keine mit „Ergebnisse speichern“ geschriebene Datei</translation>
    </message>
    <message>
        <source>{path} cannot be opened as simgui results: {error}</source>
        <translation>{path} kann nicht als simgui-Ergebnisse geöffnet werden: {error}</translation>
    </message>
    <message>
        <source>Opening results {name}…</source>
        <translation>Ergebnisse {name} werden geöffnet…</translation>
    </message>
    <message>
        <source>Opened results: {n:,} groups saved</source>
        <translation>Ergebnisse geöffnet: {n:,} Gruppen gespeichert</translation>
    </message>
    <message>
        <source>; {n:,} of their files changed or gone since (shown as they are now).</source>
        <translation>; {n:,} ihrer Dateien haben sich seitdem geändert oder fehlen (so gezeigt, wie sie jetzt sind).</translation>
    </message>
    <message>
        <source>; no file changed since.</source>
        <translation>; seitdem hat sich keine Datei geändert.</translation>
    </message>
    <message>
        <source>{n:,} group got another reference.</source>
        <translation>{n:,} Gruppe hat eine andere Referenz erhalten.</translation>
    </message>
    <message>
        <source>{n:,} groups got another reference.</source>
        <translation>{n:,} Gruppen haben eine andere Referenz erhalten.</translation>
    </message>
    <message>
        <source>Updating the ignore list</source>
        <translation>Die Ignorierliste wird aktualisiert</translation>
    </message>
    <message>
        <source>{n:,} pair on the ignore list (Edit › Settings shows and edits it).</source>
        <translation>{n:,} Paar auf der Ignorierliste (Bearbeiten › Einstellungen zeigt und bearbeitet sie).</translation>
    </message>
    <message>
        <source>{n:,} pairs on the ignore list (Edit › Settings shows and edits it).</source>
        <translation>{n:,} Paare auf der Ignorierliste (Bearbeiten › Einstellungen zeigt und bearbeitet sie).</translation>
    </message>
    <message>
        <source>{n:,} marked · {size}</source>
        <translation>{n:,} markiert · {size}</translation>
    </message>
    <message>
        <source>Move the marked files to</source>
        <translation>Die markierten Dateien verschieben nach</translation>
    </message>
    <message>
        <source>Clean up</source>
        <translation>Bereinigen</translation>
    </message>
    <message>
        <source>Similar only, not copies ({n:,}):</source>
        <translation>Nur ähnlich, keine Kopien ({n:,}):</translation>
    </message>
    <message>
        <source>  … and {n:,} more (Show Details)</source>
        <translation>  … und {n:,} weitere (Details einblenden)</translation>
    </message>
    <message>
        <source>Identical copies ({n:,}):</source>
        <translation>Identische Kopien ({n:,}):</translation>
    </message>
    <message>
        <source>  {path}  (its identical copy {kept} stays)</source>
        <translation>  {path}  (seine identische Kopie {kept} bleibt)</translation>
    </message>
    <message>
        <source>Similar only, not copies ({n:,}); the similarity is to the group&apos;s reference:</source>
        <translation>Nur ähnlich, keine Kopien ({n:,}); die Ähnlichkeit bezieht sich auf die Referenz der Gruppe:</translation>
    </message>
    <message>
        <source>  {similarity}  {path}  (keeping {kept})</source>
        <translation>  {similarity}  {path}  (behalten wird {kept})</translation>
    </message>
    <message>
        <source>{verb} ({n:,} files, {size})</source>
        <translation>{verb} ({n:,} Dateien, {size})</translation>
    </message>
    <message>
        <source>Nothing to undo.</source>
        <translation>Nichts rückgängig zu machen.</translation>
    </message>
    <message>
        <source>Put back the {n:,} file of clean-up {id} ({action}, {when})?
Files whose original place is taken again are left where they are.</source>
        <translation>Die {n:,} Datei der Bereinigung {id} ({action}, {when}) zurücklegen?
Dateien, deren ursprünglicher Platz wieder belegt ist, bleiben, wo sie sind.</translation>
    </message>
    <message>
        <source>Put back the {n:,} files of clean-up {id} ({action}, {when})?
Files whose original place is taken again are left where they are.</source>
        <translation>Die {n:,} Dateien der Bereinigung {id} ({action}, {when}) zurücklegen?
Dateien, deren ursprünglicher Platz wieder belegt ist, bleiben, wo sie sind.</translation>
    </message>
    <message>
        <source>Undo merge {id} ({when})? Its {n:,} steps are undone: the files it sent to the trash are put back, and the copies it made are removed.
Files whose original place is taken again are left where they are.</source>
        <translation>Zusammenführung {id} ({when}) rückgängig machen? Ihre {n:,} Schritte werden zurückgenommen: Die Dateien, die sie in den Papierkorb verschoben hat, kommen zurück, und die Kopien, die sie angelegt hat, werden entfernt.
Dateien, deren ursprünglicher Platz wieder belegt ist, bleiben, wo sie sind.</translation>
    </message>
    <message>
        <source>Undoing</source>
        <translation>Rückgängig machen</translation>
    </message>
    <message>
        <source>Save session</source>
        <translation>Sitzung speichern</translation>
    </message>
    <message>
        <source>simgui sessions (*.simgui)</source>
        <translation>simgui-Sitzungen (*.simgui)</translation>
    </message>
    <message>
        <source>Session saved to {path}</source>
        <translation>Sitzung in {path} gespeichert</translation>
    </message>
    <message>
        <source>Open session</source>
        <translation>Sitzung öffnen</translation>
    </message>
    <message>
        <source>simgui sessions (*.simgui);;All files (*)</source>
        <translation>simgui-Sitzungen (*.simgui);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>{path} is not a simgui session: {error}</source>
        <translation>{path} ist keine simgui-Sitzung: {error}</translation>
    </message>
    <message>
        <source>Opened session {name}</source>
        <translation>Sitzung {name} geöffnet</translation>
    </message>
    <message>
        <source>Export groups</source>
        <translation>Gruppen exportieren</translation>
    </message>
    <message>
        <source>CSV (*.csv);;JSON (*.json);;HTML page for sharing (*.html)</source>
        <translation>CSV (*.csv);;JSON (*.json);;HTML-Seite zum Weitergeben (*.html)</translation>
    </message>
    <message>
        <source>Could not write {path}: {error}</source>
        <translation>{path} konnte nicht geschrieben werden: {error}</translation>
    </message>
    <message>
        <source>Exported {n:,} groups to {path}</source>
        <translation>{n:,} Gruppen nach {path} exportiert</translation>
    </message>
    <message>
        <source>Settings saved. The new language shows at the next start.</source>
        <translation>Einstellungen gespeichert. Die neue Sprache erscheint beim nächsten Start.</translation>
    </message>
    <message>
        <source>Settings saved.</source>
        <translation>Einstellungen gespeichert.</translation>
    </message>
    <message>
        <source>Could not save settings: {error}</source>
        <translation>Die Einstellungen konnten nicht gespeichert werden: {error}</translation>
    </message>
    <message>
        <source>About simgui</source>
        <translation>Über simgui</translation>
    </message>
    <message>
        <source>&lt;p&gt;Finds identical and similar files and removes the extra copies safely: every clean-up is checked right before it acts, journaled and, for trash and moves, undoable.&lt;/p&gt;&lt;p&gt;Similar files are found with sum tables and keys, after Sadowski and Levin, &lt;i&gt;SimHash: Hash-based Similarity Detection&lt;/i&gt; (2007).&lt;/p&gt;&lt;p&gt;Store: {store}&lt;/p&gt;</source>
        <translation>&lt;p&gt;Findet identische und ähnliche Dateien und entfernt die überzähligen Kopien sicher: Jede Bereinigung wird unmittelbar vor dem Handeln geprüft, protokolliert und ist beim Papierkorb und beim Verschieben rückgängig zu machen.&lt;/p&gt;&lt;p&gt;Ähnliche Dateien werden mit Summentabellen und Schlüsseln gefunden, nach Sadowski und Levin, &lt;i&gt;SimHash: Hash-based Similarity Detection&lt;/i&gt; (2007).&lt;/p&gt;&lt;p&gt;Speicher: {store}&lt;/p&gt;</translation>
    </message>
</context>
<context>
    <name>MergeDialog</name>
    <message>
        <source>Merge folders</source>
        <translation>Ordner zusammenführen</translation>
    </message>
    <message>
        <source>Use A&apos;s version of {path} ({percent} % alike to B/{match})</source>
        <translation>Die Fassung von A für {path} verwenden ({percent} % gleich mit B/{match})</translation>
    </message>
    <message>
        <source>Files only similar to B&apos;s version (unchecked: A&apos;s version is kept beside B&apos;s; checked: it replaces B&apos;s, which goes to the trash):</source>
        <translation>Dateien, die der Fassung von B nur ähneln (nicht angehakt: Die Fassung von A wird neben der von B behalten; angehakt: Sie ersetzt die von B, die in den Papierkorb kommt):</translation>
    </message>
    <message>
        <source>copy</source>
        <translation>kopieren</translation>
    </message>
    <message>
        <source>trash</source>
        <translation>Papierkorb</translation>
    </message>
    <message>
        <source>  (replaced by A&apos;s version)</source>
        <translation>  (durch die Fassung von A ersetzt)</translation>
    </message>
    <message>
        <source>Every step, in order (A: {a}, B: {b}):</source>
        <translation>Jeder Schritt, der Reihe nach (A: {a}, B: {b}):</translation>
    </message>
    <message>
        <source>Merge</source>
        <translation>Zusammenführen</translation>
    </message>
</context>
<context>
    <name>PictureCompare</name>
    <message>
        <source>Zoom both pictures (100 %: each fits a thumbnail)</source>
        <translation>Beide Bilder zoomen (100 %: jedes passt in ein Vorschaubild)</translation>
    </message>
    <message>
        <source>Fit</source>
        <translation>Einpassen</translation>
    </message>
    <message>
        <source>Back to thumbnails</source>
        <translation>Zurück zu den Vorschaubildern</translation>
    </message>
    <message>
        <source>Zoom</source>
        <translation>Zoom</translation>
    </message>
    <message>
        <source>(no preview)</source>
        <translation>(keine Vorschau)</translation>
    </message>
</context>
<context>
    <name>PlanText</name>
    <message>
        <source>trash</source>
        <translation>Papierkorb</translation>
    </message>
    <message>
        <source>delete</source>
        <translation>Löschen</translation>
    </message>
    <message>
        <source>move</source>
        <translation>Verschieben</translation>
    </message>
    <message>
        <source>hardlink</source>
        <translation>Hardlink</translation>
    </message>
    <message>
        <source>symlink</source>
        <translation>symbolischer Link</translation>
    </message>
    <message>
        <source>merge</source>
        <translation>Zusammenführen</translation>
    </message>
    <message>
        <source>undo</source>
        <translation>Rückgängig</translation>
    </message>
    <message>
        <source>{n:,} file ({size})</source>
        <translation>{n:,} Datei ({size})</translation>
    </message>
    <message>
        <source>{n:,} files ({size})</source>
        <translation>{n:,} Dateien ({size})</translation>
    </message>
    <message>
        <source>Nothing to do.</source>
        <translation>Nichts zu tun.</translation>
    </message>
    <message>
        <source>Send {files} to the trash</source>
        <translation>{files} in den Papierkorb verschieben</translation>
    </message>
    <message>
        <source>Delete {files} permanently (this cannot be undone)</source>
        <translation>{files} endgültig löschen (kann nicht rückgängig gemacht werden)</translation>
    </message>
    <message>
        <source>Move {files} to {target}</source>
        <translation>{files} nach {target} verschieben</translation>
    </message>
    <message>
        <source>Replace {files} with hard links to the copy kept</source>
        <translation>{files} durch harte Links auf die behaltene Kopie ersetzen</translation>
    </message>
    <message>
        <source>Replace {files} with symbolic links to the copy kept</source>
        <translation>{files} durch symbolische Links auf die behaltene Kopie ersetzen</translation>
    </message>
    <message>
        <source>, keeping one file in each of {n:,} groups.</source>
        <translation>; in jeder der {n:,} Gruppen bleibt eine Datei.</translation>
    </message>
    <message>
        <source>, keeping one file of the group.</source>
        <translation>; eine Datei der Gruppe bleibt.</translation>
    </message>
    <message>
        <source>Each file is compared byte for byte with the kept copy right before acting.</source>
        <translation>Jede Datei wird unmittelbar vor dem Handeln Byte für Byte mit der behaltenen Kopie verglichen.</translation>
    </message>
    <message>
        <source>Each identical copy is compared byte for byte with a copy that stays right before acting.</source>
        <translation>Jede identische Kopie wird unmittelbar vorher Byte für Byte mit einer bleibenden Kopie verglichen.</translation>
    </message>
    <message>
        <source>{n:,} of these files is not identical to the kept copy (similar only)</source>
        <translation>{n:,} dieser Dateien ist nicht identisch mit der behaltenen Kopie (nur ähnlich)</translation>
    </message>
    <message>
        <source>{n:,} of these files are not identical to the kept copy (similar only)</source>
        <translation>{n:,} dieser Dateien sind nicht identisch mit der behaltenen Kopie (nur ähnlich)</translation>
    </message>
    <message>
        <source>: what differs in them is deleted for good.</source>
        <translation>: Was in ihnen abweicht, ist endgültig verloren.</translation>
    </message>
    <message>
        <source>{n:,} other file of these groups is left alone.</source>
        <translation>{n:,} weitere Datei dieser Gruppen bleibt unberührt.</translation>
    </message>
    <message>
        <source>{n:,} other files of these groups are left alone.</source>
        <translation>{n:,} weitere Dateien dieser Gruppen bleiben unberührt.</translation>
    </message>
    <message>
        <source>{n:,} of them is an empty file</source>
        <translation>{n:,} davon ist eine leere Datei</translation>
    </message>
    <message>
        <source>{n:,} of them are empty files</source>
        <translation>{n:,} davon sind leere Dateien</translation>
    </message>
    <message>
        <source>: removing one frees nothing, and empty files such as __init__.py or .gitkeep matter by their names (mark them in the window to act on them).</source>
        <translation>: Ihr Entfernen gibt nichts frei, und leere Dateien wie __init__.py oder .gitkeep zählen durch ihre Namen (markieren Sie sie im Fenster, um sie zu bereinigen).</translation>
    </message>
    <message>
        <source>{n:,} of them is another name of a file that stays (same device and inode), not a copy of it.</source>
        <translation>{n:,} davon ist ein weiterer Name einer Datei, die bleibt (gleiches Gerät, gleicher Inode), keine Kopie von ihr.</translation>
    </message>
    <message>
        <source>{n:,} of them are another name of a file that stays (same device and inode), not a copy of it.</source>
        <translation>{n:,} davon sind weitere Namen einer Datei, die bleibt (gleiches Gerät, gleicher Inode), keine Kopien von ihr.</translation>
    </message>
    <message>
        <source>{n:,} group refused, nothing in it is touched:</source>
        <translation>{n:,} Gruppe abgelehnt, nichts darin wird angerührt:</translation>
    </message>
    <message>
        <source>{n:,} groups refused, nothing in them is touched:</source>
        <translation>{n:,} Gruppen abgelehnt, nichts darin wird angerührt:</translation>
    </message>
    <message>
        <source>  group {id}: {reason}</source>
        <translation>  Gruppe {id}: {reason}</translation>
    </message>
    <message>
        <source>  ... and {n:,} more</source>
        <translation>  ... und {n:,} weitere</translation>
    </message>
    <message>
        <source>Clean-up {id} ({action}): {done:,} done ({size}), {skipped:,} skipped, {failed:,} failed</source>
        <translation>Bereinigung {id} ({action}): {done:,} erledigt ({size}), {skipped:,} übersprungen, {failed:,} fehlgeschlagen</translation>
    </message>
    <message>
        <source>, cancelled</source>
        <translation>, abgebrochen</translation>
    </message>
    <message>
        <source>skipped</source>
        <translation>übersprungen</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>fehlgeschlagen</translation>
    </message>
    <message>
        <source> and {n:,} more</source>
        <translation> und {n:,} weitere</translation>
    </message>
    <message>
        <source>{a} is not merged into {b}: </source>
        <translation>{a} wird nicht mit {b} zusammengeführt: </translation>
    </message>
    <message>
        <source>copy {n:,} file ({size}) into B, </source>
        <translation>{n:,} Datei ({size}) nach B kopieren, </translation>
    </message>
    <message>
        <source>copy {n:,} files ({size}) into B, </source>
        <translation>{n:,} Dateien ({size}) nach B kopieren, </translation>
    </message>
    <message>
        <source>then send the {n:,} scanned file of A to the trash, each compared byte for byte with its copy in B first.</source>
        <translation>dann die {n:,} gescannte Datei von A in den Papierkorb verschieben, jede zuvor Byte für Byte mit ihrer Kopie in B verglichen.</translation>
    </message>
    <message>
        <source>then send the {n:,} scanned files of A to the trash, each compared byte for byte with its copy in B first.</source>
        <translation>dann die {n:,} gescannten Dateien von A in den Papierkorb verschieben, jede zuvor Byte für Byte mit ihrer Kopie in B verglichen.</translation>
    </message>
    <message>
        <source>Merge {a} into {b}:</source>
        <translation>{a} mit {b} zusammenführen:</translation>
    </message>
    <message>
        <source>{n:,} of A&apos;s files is only similar to B&apos;s version and kept beside it: </source>
        <translation>{n:,} Datei von A ähnelt der Fassung in B nur und wird daneben behalten: </translation>
    </message>
    <message>
        <source>{n:,} of A&apos;s files are only similar to B&apos;s version and kept beside it: </source>
        <translation>{n:,} Dateien von A ähneln der Fassung in B nur und werden daneben behalten: </translation>
    </message>
    <message>
        <source>{n:,} of B&apos;s files is replaced by A&apos;s version (B&apos;s version to the trash): </source>
        <translation>{n:,} Datei von B wird durch die Fassung von A ersetzt (die Fassung von B kommt in den Papierkorb): </translation>
    </message>
    <message>
        <source>{n:,} of B&apos;s files are replaced by A&apos;s version (B&apos;s version to the trash): </source>
        <translation>{n:,} Dateien von B werden durch die Fassung von A ersetzt (die Fassungen von B kommen in den Papierkorb): </translation>
    </message>
    <message>
        <source>The first step that fails stops the merge, before A is touched; undoing the merge puts A back and removes the copies.</source>
        <translation>Der erste fehlschlagende Schritt hält das Zusammenführen an, bevor A angerührt wird; das Zusammenführen rückgängig zu machen legt A zurück und entfernt die Kopien.</translation>
    </message>
    <message>
        <source>only in A</source>
        <translation>nur in A</translation>
    </message>
    <message>
        <source>A&apos;s version, preferred</source>
        <translation>Fassung von A, bevorzugt</translation>
    </message>
    <message>
        <source>A&apos;s version, beside B&apos;s</source>
        <translation>Fassung von A, neben der von B</translation>
    </message>
</context>
<context>
    <name>ReprioritizeDialog</name>
    <message>
        <source>In this folder first</source>
        <extracomment>rule name -&gt; what the dialog calls it (translated where shown, context &quot;ReprioritizeDialog&quot;); rules with an argument ask for it</extracomment>
        <translation>Zuerst in diesem Ordner</translation>
    </message>
    <message>
        <source>Newest</source>
        <translation>Neueste</translation>
    </message>
    <message>
        <source>Oldest</source>
        <translation>Älteste</translation>
    </message>
    <message>
        <source>Largest</source>
        <translation>Größte</translation>
    </message>
    <message>
        <source>Smallest</source>
        <translation>Kleinste</translation>
    </message>
    <message>
        <source>Shortest path</source>
        <translation>Kürzester Pfad</translation>
    </message>
    <message>
        <source>Name matches (glob, or re: for a regular expression)</source>
        <translation>Name passt (Glob-Muster, oder re: für einen regulären Ausdruck)</translation>
    </message>
    <message>
        <source>Re-prioritize</source>
        <translation>Neu priorisieren</translation>
    </message>
    <message>
        <source>folder, or name pattern</source>
        <translation>Ordner oder Namensmuster</translation>
    </message>
    <message>
        <source>Add</source>
        <translation>Hinzufügen</translation>
    </message>
    <message>
        <source>Up</source>
        <translation>Hoch</translation>
    </message>
    <message>
        <source>Down</source>
        <translation>Runter</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>Entfernen</translation>
    </message>
    <message>
        <source>Choose each group&apos;s reference (the file kept) by these rules, the first deciding first:</source>
        <translation>Die Referenz (die behaltene Datei) jeder Gruppe nach diesen Regeln wählen, die erste entscheidet zuerst:</translation>
    </message>
    <message>
        <source>a folder</source>
        <translation>ein Ordner</translation>
    </message>
    <message>
        <source>e.g. *.jpg, or re:^IMG_\d+</source>
        <translation>z. B. *.jpg, oder re:^IMG_\d+</translation>
    </message>
    <message>
        <source>This rule needs a folder or a name pattern in the field.</source>
        <translation>Diese Regel braucht einen Ordner oder ein Namensmuster im Feld.</translation>
    </message>
    <message>
        <source>Not a regular expression: {error}</source>
        <translation>Kein regulärer Ausdruck: {error}</translation>
    </message>
    <message>
        <source>&lt;b&gt;{n:,}&lt;/b&gt; of {total:,} groups would get another reference.</source>
        <translation>&lt;b&gt;{n:,}&lt;/b&gt; von {total:,} Gruppen würden eine andere Referenz erhalten.</translation>
    </message>
    <message>
        <source>Add a rule.</source>
        <translation>Fügen Sie eine Regel hinzu.</translation>
    </message>
</context>
<context>
    <name>SettingsDialog</name>
    <message>
        <source>Oldest file</source>
        <translation>Älteste Datei</translation>
    </message>
    <message>
        <source>Newest file</source>
        <translation>Neueste Datei</translation>
    </message>
    <message>
        <source>Largest file</source>
        <translation>Größte Datei</translation>
    </message>
    <message>
        <source>Shortest path</source>
        <translation>Kürzester Pfad</translation>
    </message>
    <message>
        <source>Move to Trash</source>
        <translation>In den Papierkorb</translation>
    </message>
    <message>
        <source>Move to a folder</source>
        <translation>In einen Ordner verschieben</translation>
    </message>
    <message>
        <source>Skew (the paper&apos;s key)</source>
        <translation>Skew (Schlüssel des Papers)</translation>
    </message>
    <message>
        <source>Uniform</source>
        <translation>Uniform</translation>
    </message>
    <message>
        <source>Custom</source>
        <translation>Eigener</translation>
    </message>
    <message>
        <source>System default</source>
        <translation>Systemvorgabe</translation>
    </message>
    <message>
        <source>Settings</source>
        <translation>Einstellungen</translation>
    </message>
    <message>
        <source>What Delete does to the marked files</source>
        <translation>Was „Entf“ mit den markierten Dateien tut</translation>
    </message>
    <message>
        <source>ask each time</source>
        <translation>jedes Mal fragen</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>Durchsuchen…</translation>
    </message>
    <message>
        <source>Which file of a group is its reference (kept by default), after files in reference folders</source>
        <translation>Welche Datei einer Gruppe ihre Referenz ist (standardmäßig behalten), nach Dateien in Referenzordnern</translation>
    </message>
    <message>
        <source>none, e.g. ps=3.2,0.23; pdf=1,0.24</source>
        <translation>keine, z. B. ps=3.2,0.23; pdf=1,0.24</translation>
    </message>
    <message>
        <source>Fixed key and sum-table tolerances (percent) for the files of an extension, whatever the sliders: for formats whose files share a large header, such as PostScript, where unrelated files otherwise look alike</source>
        <translation>Feste Schlüssel- und Summentabellen-Toleranzen (Prozent) für die Dateien einer Endung, unabhängig von den Schiebereglern: für Formate, deren Dateien einen großen Kopfteil teilen, etwa PostScript, wo sich sonst unverwandte Dateien ähneln</translation>
    </message>
    <message>
        <source>one per processor core</source>
        <translation>einer je Prozessorkern</translation>
    </message>
    <message>
        <source>The window&apos;s language; the command line stays English</source>
        <translation>Die Sprache des Fensters; die Kommandozeile bleibt englisch</translation>
    </message>
    <message>
        <source>&lt;small&gt;applied at the next start&lt;/small&gt;</source>
        <translation>&lt;small&gt;gilt ab dem nächsten Start&lt;/small&gt;</translation>
    </message>
    <message>
        <source>Clean-up action</source>
        <translation>Bereinigungsaktion</translation>
    </message>
    <message>
        <source>Move to</source>
        <translation>Verschieben nach</translation>
    </message>
    <message>
        <source>Group reference</source>
        <translation>Gruppenreferenz</translation>
    </message>
    <message>
        <source>Key scheme</source>
        <translation>Schlüsselschema</translation>
    </message>
    <message>
        <source>Key tolerance</source>
        <translation>Schlüsseltoleranz</translation>
    </message>
    <message>
        <source>Sum-table tolerance</source>
        <translation>Summentab.-Toleranz</translation>
    </message>
    <message>
        <source>Per-extension tolerances</source>
        <translation>Toleranzen je Endung</translation>
    </message>
    <message>
        <source>Reading threads</source>
        <translation>Lese-Threads</translation>
    </message>
    <message>
        <source>Store</source>
        <translation>Speicher</translation>
    </message>
    <message>
        <source>Language</source>
        <translation>Sprache</translation>
    </message>
    <message>
        <source>Not duplicates</source>
        <translation>Keine Duplikate</translation>
    </message>
    <message>
        <source>&lt;small&gt;The store holds the scan results. A different store starts empty; nothing is copied or deleted.&lt;/small&gt;</source>
        <translation>&lt;small&gt;Der Speicher enthält die Scan-Ergebnisse. Ein anderer Speicher beginnt leer; nichts wird kopiert oder gelöscht.&lt;/small&gt;</translation>
    </message>
    <message>
        <source>Move marked files to</source>
        <translation>Markierte Dateien verschieben nach</translation>
    </message>
    <message>
        <source>Store file</source>
        <translation>Speicherdatei</translation>
    </message>
    <message>
        <source>simgui stores (*.sqlite3);;All files (*)</source>
        <translation>simgui-Speicher (*.sqlite3);;Alle Dateien (*)</translation>
    </message>
</context>
<context>
    <name>SimilarFoldersView</name>
    <message>
        <source>A holds B: this pair can only be cleaned up by trashing B, whose files have their copies in the rest of A</source>
        <translation>A enthält B: Dieses Paar lässt sich nur bereinigen, indem B in den Papierkorb kommt, dessen Dateien ihre Kopien im Rest von A haben</translation>
    </message>
    <message>
        <source>Similar</source>
        <translation>Ähnlich</translation>
    </message>
    <message>
        <source>A in B</source>
        <translation>A in B</translation>
    </message>
    <message>
        <source>B in A</source>
        <translation>B in A</translation>
    </message>
    <message>
        <source>Files A</source>
        <translation>Dateien A</translation>
    </message>
    <message>
        <source>Files B</source>
        <translation>Dateien B</translation>
    </message>
    <message>
        <source>To free</source>
        <translation>Freizugeben</translation>
    </message>
    <message>
        <source>Folder A</source>
        <translation>Ordner A</translation>
    </message>
    <message>
        <source>Folder B</source>
        <translation>Ordner B</translation>
    </message>
    <message>
        <source>same</source>
        <translation>gleich</translation>
    </message>
    <message>
        <source>similar</source>
        <translation>ähnlich</translation>
    </message>
    <message>
        <source>only here</source>
        <translation>nur hier</translation>
    </message>
    <message>
        <source>at least </source>
        <extracomment>a file double-clicked in a side: its row in the table&apos;s files (to show its group) Trash A / Trash B: the folder whose files are to go (each only if an identical copy outside it stays; the window plans, confirms and runs it as a clean-up) Merge A into B / B into A: (the folder merged, the folder it goes into)</extracomment>
        <translation>mindestens </translation>
    </message>
    <message>
        <source>List folder pairs at least this alike: the share of both folders&apos; bytes that is in the other (a file with only a similar file there counts at its similarity)</source>
        <translation>Ordnerpaare auflisten, die sich mindestens so sehr gleichen: der Anteil der Bytes beider Ordner, der im jeweils anderen vorkommt (eine Datei, die dort nur eine ähnliche Datei hat, zählt mit ihrer Ähnlichkeit)</translation>
    </message>
    <message>
        <source>Send every file of folder {} to the trash, each only if an identical copy outside the folder stays (compared byte for byte right before acting); refused if one file has none. Undo Last Clean-up puts them back.</source>
        <translation>Jede Datei von Ordner {} in den Papierkorb verschieben, jede nur, wenn eine identische Kopie außerhalb des Ordners bleibt (unmittelbar vor dem Handeln Byte für Byte verglichen); abgelehnt, wenn eine Datei keine hat. „Letzte Bereinigung rückgängig“ legt sie zurück.</translation>
    </message>
    <message>
        <source>Trash Folder A…</source>
        <translation>Ordner A in den Papierkorb…</translation>
    </message>
    <message>
        <source>Trash Folder B…</source>
        <translation>Ordner B in den Papierkorb…</translation>
    </message>
    <message>
        <source>Copy into folder {1} every file of {0} whose content {1} lacks (each verified byte for byte; a file only similar to {1}&apos;s version is kept beside it unless you pick {0}&apos;s version), then send {0}&apos;s files to the trash, each compared with its copy first. Undo Last Clean-up puts it back.</source>
        <translation>Jede Datei von {0}, deren Inhalt {1} fehlt, in Ordner {1} kopieren (jede Byte für Byte geprüft; eine Datei, die der Fassung in {1} nur ähnelt, wird daneben behalten, sofern Sie nicht die Fassung von {0} wählen), dann die Dateien von {0} in den Papierkorb verschieben, jede zuvor mit ihrer Kopie verglichen. „Letzte Bereinigung rückgängig“ legt alles zurück.</translation>
    </message>
    <message>
        <source>Merge A into B…</source>
        <translation>A in B zusammenführen…</translation>
    </message>
    <message>
        <source>Merge B into A…</source>
        <translation>B in A zusammenführen…</translation>
    </message>
    <message>
        <source>Finding similar folders…</source>
        <translation>Ähnliche Ordner werden gesucht…</translation>
    </message>
    <message>
        <source>Similar folders</source>
        <translation>Ähnliche Ordner</translation>
    </message>
    <message>
        <source>Similar folders could not be found: {error}</source>
        <translation>Ähnliche Ordner konnten nicht gesucht werden: {error}</translation>
    </message>
    <message>
        <source>Scan folders to find folders that are copies of each other (backups of backups).</source>
        <translation>Scannen Sie Ordner, um Ordner zu finden, die Kopien voneinander sind (Sicherungen von Sicherungen).</translation>
    </message>
    <message>
        <source>Similar folders are found when this view is shown.</source>
        <translation>Ähnliche Ordner werden gesucht, wenn diese Ansicht gezeigt wird.</translation>
    </message>
    <message>
        <source>No two folders are {percent} % alike or more.</source>
        <translation>Keine zwei Ordner gleichen sich zu {percent} % oder mehr.</translation>
    </message>
    <message>
        <source>{n:,} pair of similar folders, {size} in files with a match in the other folder. Expand a pair for the pairs of its subfolders.</source>
        <translation>{n:,} Paar ähnlicher Ordner, {size} in Dateien mit einer Entsprechung im anderen Ordner. Klappen Sie ein Paar auf, um die Paare seiner Unterordner zu sehen.</translation>
    </message>
    <message>
        <source>{n:,} pairs of similar folders, {size} in files with a match in the other folder. Expand a pair for the pairs of its subfolders.</source>
        <translation>{n:,} Paare ähnlicher Ordner, {size} in Dateien mit einer Entsprechung im anderen Ordner. Klappen Sie ein Paar auf, um die Paare seiner Unterordner zu sehen.</translation>
    </message>
    <message>
        <source> (without B)</source>
        <translation> (ohne B)</translation>
    </message>
    <message>
        <source>A (without B)</source>
        <translation>A (ohne B)</translation>
    </message>
</context>
<context>
    <name>TextCompare</name>
    <message>
        <source>Previous change</source>
        <translation>Vorherige Änderung</translation>
    </message>
    <message>
        <source>Next change</source>
        <translation>Nächste Änderung</translation>
    </message>
    <message>
        <source>The lines shown are the same in both files.</source>
        <translation>Die gezeigten Zeilen sind in beiden Dateien gleich.</translation>
    </message>
    <message>
        <source>Lines changed: {changed} · only in A: {deleted} · only in B: {inserted}.</source>
        <translation>Geänderte Zeilen: {changed} · nur in A: {deleted} · nur in B: {inserted}.</translation>
    </message>
    <message>
        <source>The files end their lines differently (CR LF and LF); lines are compared without their endings.</source>
        <translation>Die Dateien beenden ihre Zeilen unterschiedlich (CR LF und LF); Zeilen werden ohne ihre Enden verglichen.</translation>
    </message>
    <message>
        <source>A reads as {a}, B as {b}.</source>
        <translation>A wird als {a} gelesen, B als {b}.</translation>
    </message>
    <message>
        <source>Only the first {shown} of {letter} ({size}) are shown.</source>
        <translation>Nur die ersten {shown} von {letter} ({size}) werden gezeigt.</translation>
    </message>
</context>
<context>
    <name>ThresholdSlider</name>
    <message>
        <source> bit</source>
        <extracomment>Page Up/Down on a tolerance: 1-2-5 round values, which hold the defaults (5 and 10 %) +1: the value grows to the right; -1: it falls (the slider still moves right towards more pairs)</extracomment>
        <translation> Bit</translation>
    </message>
    <message>
        <source> bits</source>
        <translation> Bits</translation>
    </message>
</context>
<context>
    <name>ToleranceChart</name>
    <message>
        <source>Scan a folder to see how many pairs each tolerance finds</source>
        <translation>Scannen Sie einen Ordner, um zu sehen, wie viele Paare jede Toleranz findet</translation>
    </message>
    <message>
        <source>File pairs (log scale)</source>
        <extracomment>Counts spanning this factor or more go on a log y axis (else the smaller curve hugs the floor).</extracomment>
        <translation>Dateipaare (logarithmisch)</translation>
    </message>
    <message>
        <source>File pairs</source>
        <translation>Dateipaare</translation>
    </message>
    <message>
        <source>Tolerance (%)</source>
        <translation>Toleranz (%)</translation>
    </message>
    <message>
        <source>key hits</source>
        <translation>key hits</translation>
    </message>
    <message>
        <source>sum-table hits</source>
        <translation>sum-table hits</translation>
    </message>
    <message>
        <source>Key hits (the paper&apos;s term): candidates, pairs whose keys are within the tolerance.
Sum-table hits: similar pairs, candidates whose sum tables are within it too (before the content check).</source>
        <translation>Key hits (Begriff des Papers): Kandidaten, also Paare, deren Schlüssel innerhalb der Toleranz liegen.
Sum-table hits: ähnliche Paare, also Kandidaten, deren Summentabellen ebenfalls darin liegen (vor der Inhaltsprüfung).</translation>
    </message>
    <message>
        <source>key</source>
        <translation>Schlüssel</translation>
    </message>
    <message>
        <source>sum table</source>
        <translation>Summentabelle</translation>
    </message>
    <message>
        <source>&lt;b&gt;Hits against tolerance&lt;/b&gt;</source>
        <translation>&lt;b&gt;Treffer gegen Toleranz&lt;/b&gt;</translation>
    </message>
    <message>
        <source>Counts of file pairs</source>
        <translation>Anzahlen von Dateipaaren</translation>
    </message>
    <message>
        <source>Counts of file pairs out of {total:,} possible pairs</source>
        <translation>Anzahlen von Dateipaaren aus {total:,} möglichen Paaren</translation>
    </message>
    <message>
        <source>tolerances with no hits are left out of the log scale</source>
        <translation>Toleranzen ohne Treffer fehlen auf der logarithmischen Skala</translation>
    </message>
    <message>
        <source>x is the key tolerance; the sum-table tolerance moves with it</source>
        <translation>x ist die Schlüsseltoleranz; die Summentabellen-Toleranz bewegt sich mit</translation>
    </message>
    <message>
        <source>each point sets the key and the sum-table tolerance to the same value, as the paper&apos;s Figures 6-7 do; the counts under the sliders use the two sliders&apos; own values</source>
        <translation>jeder Punkt setzt Schlüssel- und Summentabellen-Toleranz auf denselben Wert, wie die Abbildungen 6–7 des Papers; die Anzahlen unter den Schiebereglern verwenden die eigenen Werte der beiden Regler</translation>
    </message>
    <message>
        <source>key and sum table {value:g} %</source>
        <translation>Schlüssel und Summentabelle {value:g} %</translation>
    </message>
    <message>
        <source>key {value:g} %</source>
        <translation>Schlüssel {value:g} %</translation>
    </message>
    <message>
        <source>sum table {value:g} %</source>
        <translation>Summentabelle {value:g} %</translation>
    </message>
</context>
<context>
    <name>TolerancePanel</name>
    <message>
        <source>Skew (the paper&apos;s key)</source>
        <translation>Skew (Schlüssel des Papers)</translation>
    </message>
    <message>
        <source>Uniform</source>
        <translation>Uniform</translation>
    </message>
    <message>
        <source>Custom…</source>
        <translation>Eigener…</translation>
    </message>
    <message>
        <source>Sum tables (the paper&apos;s method)</source>
        <translation>Summentabellen (Methode des Papers)</translation>
    </message>
    <message>
        <source>Simhash fingerprints</source>
        <translation>Simhash-Fingerabdrücke</translation>
    </message>
    <message>
        <source>MinHash resemblance</source>
        <translation>MinHash-Übereinstimmung</translation>
    </message>
    <message>
        <source>Similar pictures</source>
        <translation>Ähnliche Bilder</translation>
    </message>
    <message>
        <source>Similar pictures, turned or mirrored too</source>
        <translation>Ähnliche Bilder, auch gedreht/gespiegelt</translation>
    </message>
    <message>
        <source>Keys and sum tables of tag counts (Sadowski and Levin): fast to compute, found while scanning</source>
        <translation>Schlüssel und Summentabellen aus Tag-Zählungen (Sadowski und Levin): schnell berechnet, schon beim Scannen ermittelt</translation>
    </message>
    <message>
        <source>64-bit fingerprints of each file&apos;s content, compared bit by bit. Needs fingerprints: the folders are read once more the first time</source>
        <translation>64-Bit-Fingerabdrücke des Inhalts jeder Datei, Bit für Bit verglichen. Braucht Fingerabdrücke: Die Ordner werden beim ersten Mal noch einmal gelesen</translation>
    </message>
    <message>
        <source>The share of content pieces two files have in common: finds the most edits. Needs fingerprints: the folders are read once more the first time</source>
        <translation>Der Anteil der Inhaltsstücke, die zwei Dateien gemeinsam haben: findet die meisten Bearbeitungen. Braucht Fingerabdrücke: Die Ordner werden beim ersten Mal noch einmal gelesen</translation>
    </message>
    <message>
        <source>Pictures that look the same (re-saved, resized, another format), by a 64-bit perceptual hash of each picture, compared bit by bit</source>
        <translation>Bilder, die gleich aussehen (neu gespeichert, skaliert, anderes Format), über einen 64-Bit-Wahrnehmungshash jedes Bildes, Bit für Bit verglichen</translation>
    </message>
    <message>
        <source>Similar pictures, also turned 90, 180 or 270 degrees or mirrored</source>
        <translation>Ähnliche Bilder, auch um 90, 180 oder 270 Grad gedreht oder gespiegelt</translation>
    </message>
    <message>
        <source>Tolerances</source>
        <translation>Toleranzen</translation>
    </message>
    <message>
        <source>How files are compared</source>
        <translation>Wie Dateien verglichen werden</translation>
    </message>
    <message>
        <source>How different two files may be and still count as similar</source>
        <translation>Wie verschieden zwei Dateien sein dürfen und trotzdem als ähnlich gelten</translation>
    </message>
    <message>
        <source>How far apart two files&apos; keys may be, in percent of the larger file&apos;s size: the first, fast filter</source>
        <translation>Wie weit die Schlüssel zweier Dateien auseinanderliegen dürfen, in Prozent der Größe der größeren Datei: der erste, schnelle Filter</translation>
    </message>
    <message>
        <source>How far apart two files&apos; sum tables may be (L1 distance), in percent of their mean size: what makes two files similar</source>
        <translation>Wie weit die Summentabellen zweier Dateien auseinanderliegen dürfen (L1-Abstand), in Prozent ihrer mittleren Größe: was zwei Dateien ähnlich macht</translation>
    </message>
    <message>
        <source>Files are compared only if the larger is at most this many times the smaller</source>
        <translation>Dateien werden nur verglichen, wenn die größere höchstens so viele Male so groß ist wie die kleinere</translation>
    </message>
    <message>
        <source>Weights that turn a sum table into a key</source>
        <translation>Gewichte, die eine Summentabelle in einen Schlüssel verwandeln</translation>
    </message>
    <message>
        <source>Only compare files with the same extension</source>
        <translation>Nur Dateien gleicher Endung vergleichen</translation>
    </message>
    <message>
        <source>The paper&apos;s extension modification: keys of different extensions lie far apart. Identical copies are found whatever their names.</source>
        <translation>Die Endungsmodifikation des Papers: Schlüssel verschiedener Endungen liegen weit auseinander. Identische Kopien werden unabhängig von ihren Namen gefunden.</translation>
    </message>
    <message>
        <source>Confirm similar files by their content</source>
        <translation>Ähnliche Dateien per Inhalt bestätigen</translation>
    </message>
    <message>
        <source>After the sum tables, two files that are not copies count as similar only if they have enough of their content in common. Without it, unrelated photos, videos or archives of about the same size look similar (the paper&apos;s method as published)</source>
        <translation>Nach den Summentabellen gelten zwei Dateien, die keine Kopien sind, nur dann als ähnlich, wenn sie genug Inhalt gemeinsam haben. Ohne diese Prüfung wirken unverwandte Fotos, Videos oder Archive ähnlicher Größe ähnlich (die Methode des Papers wie veröffentlicht)</translation>
    </message>
    <message>
        <source>How much of their content two files must have in common to count as similar, estimated from fingerprints of their content (100 % only for copies)</source>
        <translation>Wie viel Inhalt zwei Dateien gemeinsam haben müssen, um als ähnlich zu gelten, geschätzt aus Fingerabdrücken ihres Inhalts (100 % nur bei Kopien)</translation>
    </message>
    <message>
        <source>Candidates: pairs whose keys are within the key tolerance (the paper&apos;s &quot;key hits&quot;).&lt;br&gt;Similar pairs: candidates whose sum tables are within the sum-table tolerance (the paper&apos;s &quot;sum-table hits&quot;), then confirmed by their content when that is on.</source>
        <translation>Kandidaten: Paare, deren Schlüssel innerhalb der Schlüsseltoleranz liegen (die „key hits“ des Papers).&lt;br&gt;Ähnliche Paare: Kandidaten, deren Summentabellen innerhalb der Summentabellen-Toleranz liegen (die „sum-table hits“ des Papers), dann über ihren Inhalt bestätigt, wenn das eingeschaltet ist.</translation>
    </message>
    <message>
        <source>Method</source>
        <translation>Methode</translation>
    </message>
    <message>
        <source>Key tolerance</source>
        <translation>Schlüsseltoleranz</translation>
    </message>
    <message>
        <source>Sum-table tolerance</source>
        <translation>Summentab.-Toleranz</translation>
    </message>
    <message>
        <source>Content in common</source>
        <translation>Gemeinsamer Inhalt</translation>
    </message>
    <message>
        <source>Threshold</source>
        <translation>Schwelle</translation>
    </message>
    <message>
        <source>Size factor</source>
        <translation>Größenfaktor</translation>
    </message>
    <message>
        <source>Key scheme</source>
        <translation>Schlüsselschema</translation>
    </message>
    <message>
        <source>&lt;small&gt;Sum-table tolerance stops at {value} (your setting, {yours}, applies again to a collection that allows it): above it this collection has too many similar pairs to group in memory. The counts and the tolerance curves still cover the whole range.&lt;/small&gt;</source>
        <translation>&lt;small&gt;Die Summentabellen-Toleranz endet bei {value} (Ihre Einstellung, {yours}, gilt wieder für eine Sammlung, die sie zulässt): Darüber hat diese Sammlung zu viele ähnliche Paare, um sie im Arbeitsspeicher zu gruppieren. Die Zählungen und die Toleranzkurven decken weiterhin den ganzen Bereich ab.&lt;/small&gt;</translation>
    </message>
    <message>
        <source>&lt;small&gt;Sum-table tolerance stops at {value}: above it this collection has too many similar pairs to group in memory. The counts and the tolerance curves still cover the whole range.&lt;/small&gt;</source>
        <translation>&lt;small&gt;Die Summentabellen-Toleranz endet bei {value}: Darüber hat diese Sammlung zu viele ähnliche Paare, um sie im Arbeitsspeicher zu gruppieren. Die Zählungen und die Toleranzkurven decken weiterhin den ganzen Bereich ab.&lt;/small&gt;</translation>
    </message>
    <message>
        <source>&lt;i&gt;Counts appear after a scan.&lt;/i&gt;</source>
        <translation>&lt;i&gt;Die Anzahlen erscheinen nach einem Scan.&lt;/i&gt;</translation>
    </message>
    <message>
        <source>&lt;b&gt;{n:,}&lt;/b&gt; group</source>
        <translation>&lt;b&gt;{n:,}&lt;/b&gt; Gruppe</translation>
    </message>
    <message>
        <source>&lt;b&gt;{n:,}&lt;/b&gt; groups</source>
        <translation>&lt;b&gt;{n:,}&lt;/b&gt; Gruppen</translation>
    </message>
    <message>
        <source>{n:,} similar pair</source>
        <translation>{n:,} ähnliches Paar</translation>
    </message>
    <message>
        <source>{n:,} similar pairs</source>
        <translation>{n:,} ähnliche Paare</translation>
    </message>
    <message>
        <source>{pairs} of {all:,}</source>
        <translation>{pairs} von {all:,}</translation>
    </message>
    <message>
        <source>{pairs}, confirmed of {before:,} before the content check</source>
        <translation>{pairs}, bestätigt von {before:,} vor der Inhaltsprüfung</translation>
    </message>
    <message>
        <source>{pairs} (not confirmed by content)</source>
        <translation>{pairs} (nicht über den Inhalt bestätigt)</translation>
    </message>
    <message>
        <source>{n:,} candidate</source>
        <translation>{n:,} Kandidat</translation>
    </message>
    <message>
        <source>{n:,} candidates</source>
        <translation>{n:,} Kandidaten</translation>
    </message>
    <message>
        <source>{candidates} of {all:,} pair</source>
        <translation>{candidates} von {all:,} Paar</translation>
    </message>
    <message>
        <source>{candidates} of {all:,} pairs</source>
        <translation>{candidates} von {all:,} Paaren</translation>
    </message>
</context>
<context>
    <name>_Side</name>
    <message>
        <source>Name</source>
        <translation>Name</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Status</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>Größe</translation>
    </message>
    <message>
        <source>similar {percent} %</source>
        <translation>ähnlich {percent} %</translation>
    </message>
    <message>
        <source>
matches {path}</source>
        <translation>
entspricht {path}</translation>
    </message>
</context>
<context>
    <name>opening</name>
    <message>
        <source>Cannot open this folder: no application on this system opens it.</source>
        <translation>Dieser Ordner kann nicht geöffnet werden: Keine Anwendung auf diesem System öffnet ihn.</translation>
    </message>
    <message>
        <source>Cannot open this file: no application on this system opens it.</source>
        <translation>Diese Datei kann nicht geöffnet werden: Keine Anwendung auf diesem System öffnet sie.</translation>
    </message>
    <message>
        <source>Cannot open</source>
        <translation>Kann nicht geöffnet werden</translation>
    </message>
</context>
<context>
    <name>tasks</name>
    <message>
        <source>the store is damaged ({error}); your files are not affected: choose another store file in Edit › Settings, or move this one aside, and scan again</source>
        <translation>der Speicher ist beschädigt ({error}); Ihre Dateien sind nicht betroffen: Wählen Sie unter Bearbeiten › Einstellungen eine andere Speicherdatei oder legen Sie diese beiseite, und scannen Sie erneut</translation>
    </message>
</context>
</TS>
