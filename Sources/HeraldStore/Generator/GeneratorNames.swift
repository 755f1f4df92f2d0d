/// Name pools per script for the generator: (native first names, native last names, Latin forms for emails).
struct NamePool {
    let first: [(String, String)]
    let last: [(String, String)]
    /// Country mostly used for this pool's numbers.
    let region: String
}

enum GeneratorNames {
    static let pools: [NamePool] = [
        NamePool(first: [("Ana", "ana"), ("Marko", "marko"), ("Ivana", "ivana"), ("Đuro", "duro"), ("Željka", "zeljka"),
                         ("Luka", "luka"), ("Mateja", "mateja"), ("Šime", "sime"), ("Nikolina", "nikolina"), ("Tomislav", "tomislav")],
                 last: [("Horvat", "horvat"), ("Kovačević", "kovacevic"), ("Babić", "babic"), ("Marić", "maric"), ("Jurić", "juric"),
                        ("Novak", "novak"), ("Knežević", "knezevic"), ("Đurđević", "durdevic"), ("Šarić", "saric"), ("Vuković", "vukovic")],
                 region: "HR"),
        NamePool(first: [("John", "john"), ("Mary", "mary"), ("James", "james"), ("Patricia", "patricia"), ("Robert", "robert"),
                         ("Jennifer", "jennifer"), ("Michael", "michael"), ("Linda", "linda"), ("David", "david"), ("Susan", "susan")],
                 last: [("Smith", "smith"), ("Johnson", "johnson"), ("Williams", "williams"), ("Brown", "brown"), ("O'Connor", "oconnor"),
                        ("Miller", "miller"), ("Davis", "davis"), ("García", "garcia"), ("Wilson", "wilson"), ("Taylor", "taylor")],
                 region: "US"),
        NamePool(first: [("Jürgen", "juergen"), ("Müller", "mueller"), ("Søren", "soren"), ("François", "francois"), ("Zoë", "zoe"),
                         ("Chloé", "chloe"), ("Łukasz", "lukasz"), ("Ångström", "angstrom"), ("Hélène", "helene"), ("José", "jose")],
                 last: [("Müller", "mueller"), ("Schröder", "schroeder"), ("Lefèvre", "lefevre"), ("Nørgaard", "norgaard"),
                        ("Wójcik", "wojcik"), ("Dvořák", "dvorak"), ("Øster", "oster"), ("Größ", "gross"), ("Peña", "pena"), ("Çelik", "celik")],
                 region: "DE"),
        NamePool(first: [("Иван", "ivan"), ("Ольга", "olga"), ("Дмитрий", "dmitry"), ("Наталья", "natalya"), ("Сергей", "sergey")],
                 last: [("Петров", "petrov"), ("Смирнова", "smirnova"), ("Иванов", "ivanov"), ("Кузнецова", "kuznetsova"), ("Попов", "popov")],
                 region: "RU"),
        NamePool(first: [("Ελένη", "eleni"), ("Γιώργος", "giorgos"), ("Μαρία", "maria"), ("Νίκος", "nikos")],
                 last: [("Παπαδοπούλου", "papadopoulou"), ("Κωνσταντίνου", "konstantinou"), ("Γεωργίου", "georgiou"), ("Νικολάου", "nikolaou")],
                 region: "GR"),
        NamePool(first: [("小明", "xiaoming"), ("伟", "wei"), ("芳", "fang"), ("娜", "na")],
                 last: [("王", "wang"), ("李", "li"), ("张", "zhang"), ("刘", "liu")],
                 region: "CN"),
        NamePool(first: [("さくら", "sakura"), ("翔太", "shota"), ("陽菜", "hina")],
                 last: [("佐藤", "sato"), ("鈴木", "suzuki"), ("高橋", "takahashi")],
                 region: "JP"),
        NamePool(first: [("محمد", "mohammed"), ("فاطمة", "fatima"), ("أحمد", "ahmed"), ("ليلى", "layla")],
                 last: [("العلي", "alali"), ("حسن", "hassan"), ("الشمري", "alshammari")],
                 region: "SA"),
        NamePool(first: [("דוד", "david"), ("שרה", "sarah"), ("יוסי", "yossi")],
                 last: [("כהן", "cohen"), ("לוי", "levi"), ("מזרחי", "mizrahi")],
                 region: "IL"),
        NamePool(first: [("राहुल", "rahul"), ("प्रिया", "priya"), ("अमित", "amit")],
                 last: [("शर्मा", "sharma"), ("वर्मा", "verma"), ("पटेल", "patel")],
                 region: "IN"),
    ]

    /// Relative weight of each pool (Croatian and English names are the most common).
    static let weights = [30, 25, 12, 8, 5, 5, 3, 5, 3, 4]

    static let companies: [(String, String)] = [
        ("Infobip", "infobip.com"), ("Acme d.o.o.", "acme.hr"), ("Globex GmbH", "globex.de"), ("Initech", "initech.com"),
        ("Umbrella Corp", "umbrella.co.uk"), ("Hooli", "hooli.com"), ("Zagrebačka pivovara", "pivovara.hr"),
        ("Stark Industries", "stark.com"), ("Wayne Enterprises", "wayne.com"), ("Ярослав и партнёры", "yaroslav.ru"),
    ]

    static let webmail = ["gmail.com", "yahoo.com", "outlook.com", "gmx.de", "t-com.hr", "mail.ru", "icloud.com", "proton.me"]

    /// Mobile number shapes per region, international form: prefix and how many random digits follow.
    static let mobiles: [String: [(String, Int)]] = [
        "HR": [("+385 91 ", 7), ("+385 95 ", 7), ("+385 98 ", 7), ("+385 99 ", 7), ("+385 97 ", 7)],
        "US": [("+1 415 2", 6), ("+1 212 3", 6), ("+1 646 4", 6)],
        "DE": [("+49 151 ", 8), ("+49 160 ", 7), ("+49 171 ", 7)],
        "RU": [("+7 916 ", 7), ("+7 903 ", 7)],
        "GR": [("+30 69", 8)],
        "CN": [("+86 138 ", 8), ("+86 139 ", 8)],
        "JP": [("+81 90 ", 8)],
        "SA": [("+966 5", 8)],
        "IL": [("+972 52 ", 7)],
        "IN": [("+91 98", 8)],
        "GB": [("+44 7911 ", 6)],
        "FR": [("+33 6 ", 8)],
    ]

    static let invalidNumbers = ["12", "+44 7700 900123", "call reception", "+999 555 1234", "000", "+385 1", "ext. 42"]
    static let labels = ["mobile", "mobile", "mobile", "work", "home", "iphone", "other", "work mobile"]
}
