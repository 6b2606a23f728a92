/// `20,000`: how the shell writes every count (thousands separators), for expected output.
package func grouped(_ number: Int) -> String {
  var digits = Array(String(number))
  var index = digits.count - 3
  while index > 0 {
    digits.insert(",", at: index)
    index -= 3
  }
  return String(digits)
}
