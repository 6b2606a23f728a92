import BluePlayback
import ListenBrainz
import Testing

/// A listen's JSON text, byte for byte: the keys ListenBrainz spells (snake case, and
/// `tracknumber` in one word), sorted, so the queue holds the same text for the same listen.
struct ListenJSONTests {
  @Test func aListenWithEveryFieldIsTheTextListenBrainzTakes() {
    let track = Player.Track(
      albumID: 1, album: "Wish You Were Here", artist: "Pink Floyd", number: 1, title: "Shine On", duration: 60,
      path: "/m/1.flac", trackArtist: "Roy Harper",
      musicBrainz: Player.MusicBrainzIDs(
        recording: "8F3471B5-7E6A-48DA-86A9-C1C07A0F47AE", release: "1a2b3c4d-0000-4000-8000-000000000001",
        releaseGroup: "4d1f0c2a-3b5e-4c6d-8e7f-9a0b1c2d3e4f"))
    let listen = Listen(track, startedAt: 1_765_000_000, version: "0.1.0")
    #expect(
      listen.json
        == #"{"listened_at":1765000000,"track_metadata":{"additional_info":{"duration_ms":60000,"#
        + #""media_player":"bluelib","recording_mbid":"8f3471b5-7e6a-48da-86a9-c1c07a0f47ae","#
        + #""release_group_mbid":"4d1f0c2a-3b5e-4c6d-8e7f-9a0b1c2d3e4f","#
        + #""release_mbid":"1a2b3c4d-0000-4000-8000-000000000001","submission_client":"bluelib","#
        + #""submission_client_version":"0.1.0","tracknumber":1},"artist_name":"Roy Harper","#
        + #""release_name":"Wish You Were Here","track_name":"Shine On"}}"#)
  }

  @Test func playingNowHasNoListenedAt() {
    let track = Player.Track(albumID: 1, album: "", artist: "A", number: nil, title: "T", duration: 0, path: "/m/t.mp3")
    #expect(
      Listen(track, startedAt: nil, version: "1").json
        == #"{"track_metadata":{"additional_info":{"media_player":"bluelib","submission_client":"bluelib","#
        + #""submission_client_version":"1"},"artist_name":"A","track_name":"T"}}"#)
  }
}
