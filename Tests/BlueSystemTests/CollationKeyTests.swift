import BlueSystem
import Testing

@Suite("CollationKey")
struct CollationKeyTests {
  /// Case and accents fold; DUCET's expansions expand; stroked letters are their base letter.
  @Test(arguments: [
    ("Zappa", "zappa"), ("Émile", "emile"), ("ÉMILE", "emile"), ("e\u{301}mile", "emile"), ("Ólafur", "olafur"),
    ("Øystein", "oystein"), ("Åkesson", "akesson"), ("Æther", "aether"), ("Straße", "strasse"), ("Œuvre", "oeuvre"),
    ("Þór", "thor"), ("Łódź", "lodz"), ("Dvořák", "dvorak"), ("Việt", "viet"), ("Ｆｕｌｌ", "full"), ("Ωmega", "ωmega"),
  ])
  func keys(text: String, key: String) {
    #expect(CollationKey.key(text) == key)
  }

  /// What the library stores: nothing for a text whose key is its ASCII lower case.
  @Test func anASCIITextStoresNoKey() {
    #expect(CollationKey.storedKey("Greatest Hits") == nil)
    #expect(CollationKey.storedKey("Émile") == "emile")
  }

  @Test func aPrefixIsComparedByKey() {
    #expect(CollationKey.key(of: "Røyksopp", startsWith: "ro"))
    #expect(!CollationKey.key(of: "Greatest Hits", startsWith: "r"))
  }
}
