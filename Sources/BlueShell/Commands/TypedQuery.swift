import AlbumModel
import BlueLibrary
import FoundationEssentials

/// The query syntax, for `help find`, `help list` and docs/finding.md.
let querySyntaxHelp = """
  QUERY is beets' query language, for albums:
    sun bowie            words in title, artist or genre (case, accents ignored)
    bowie, madonna pop   a word ending in a comma ends a group; groups are ORed
    artist:bowie         in one field (names ignore case): title, artist,
                         albumartist, genre, year, tracks, length, folder,
                         cover, added; from a music folder's files: discs,
                         mb_albumid, mb_releasegroupid, format
    missing:true         albums none of whose files the last import found
    art:none             art none (no cover), local (in the files or folder),
                         downloaded (in the cache) or url (not fetched yet)
    played:5..           played five times or more; ^last_played:-1y.. not for a year
    rating:4..           rated four stars or more ('rate'); fav:true your favourites
    track:wall           a track whose title or artist matches (format:flac:
                         a track in FLAC; composer:bach, samplerate:96000 too)
    bitrate:>256         the tracks' average bitrate in kb/s; > >= < <= on any
                         number (year:<1980 is year:..1979)
    duplicate:true       another album is the same release (same MusicBrainz id,
                         or same artist, title and track count)
    artist:=Sting        the whole field (case counts); =~Sting ignores case
    =Sting               the whole title, artist or genre
    title::^The          a regular expression (case counts); :regex: any field
    year:1990..1999      ranges: year:..1979 tracks:10.. length:..40:00
    added:2026-11        dates: 2026-11-01..2026-11-20, -1w.. (d, w, m, y)
    ^genre:pop -pop      ^ or - before a term negates it
    year- artist+        sort keys, in order; ties keep the library's order
    random               a sort key too: shuffled, anew at each find
                         (title:random finds the word)
    @NAME                the query saved as NAME ('view save NAME QUERY')
  """

/// A query as typed, resolved when the command runs: an `@NAME` word stands for the saved
/// view, ANDed with the rest as a whole (its OR groups stay its own).
struct TypedQuery {
  let words: [Word]

  /// Nil when no words were typed.
  func resolve(in library: Library) throws -> AlbumQuery? {
    guard !words.isEmpty else { return nil }
    return try library.query(words.map(\.text))
  }
}
