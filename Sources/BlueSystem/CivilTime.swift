/// Seconds since 1970-01-01 00:00:00 UTC of a date and time in the proleptic Gregorian
/// calendar (Howard Hinnant's `days_from_civil`), for the date readers of the music servers'
/// answers (MPD's `Last-Modified`, Subsonic's ISO 8601 dates). `month` is 1–12; the caller
/// checks the ranges it reads.
package func secondsSince1970(
  year: Int64, month: Int64, day: Int64, hour: Int64 = 0, minute: Int64 = 0, second: Int64 = 0
) -> Int64 {
  let y = month <= 2 ? year - 1 : year
  let era = (y >= 0 ? y : y - 399) / 400
  let yearOfEra = y - era * 400
  let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
  let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
  let days = era * 146_097 + dayOfEra - 719_468
  return days * 86_400 + hour * 3600 + minute * 60 + second
}
