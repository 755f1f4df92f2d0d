// HeraldTUI
